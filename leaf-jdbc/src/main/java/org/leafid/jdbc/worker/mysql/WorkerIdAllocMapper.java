package org.leafid.jdbc.worker.mysql;

import java.sql.Timestamp;
import org.apache.ibatis.annotations.Arg;
import org.apache.ibatis.annotations.ConstructorArgs;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/** SQL on {@code leaf_workerid_alloc}; every value is a bound parameter. */
public interface WorkerIdAllocMapper {

    /**
     * The row of an address, with its holder, and how long ago the holder last wrote it measured
     * on the database's clock (both times read in one statement, so no clock of an instance counts).
     */
    @Select("""
            SELECT id, ip_port, max_timestamp, holder, update_time, LOCALTIMESTAMP AS db_now
              FROM leaf_workerid_alloc WHERE ip_port = #{ipPort}""")
    @ConstructorArgs({
        @Arg(column = "id", javaType = long.class),
        @Arg(column = "ip_port", javaType = String.class),
        @Arg(column = "max_timestamp", javaType = long.class),
        @Arg(column = "holder", javaType = String.class),
        @Arg(column = "update_time", javaType = Timestamp.class),
        @Arg(column = "db_now", javaType = Timestamp.class)
    })
    Row findByIpPort(@Param("ipPort") String ipPort);

    /** Makes {@code owner} the holder of a row nobody holds; 0 when another process got there first. */
    @Update("""
            UPDATE leaf_workerid_alloc SET holder = #{owner}, update_time = CURRENT_TIMESTAMP
             WHERE id = #{id} AND holder IS NULL""")
    int claimFree(@Param("id") long id, @Param("owner") String owner);

    /** Takes a row over from a holder whose writes stopped; 0 when it wrote again or another took it. */
    @Update("""
            UPDATE leaf_workerid_alloc SET holder = #{owner}, update_time = CURRENT_TIMESTAMP
             WHERE id = #{id} AND holder = #{previous}""")
    int claimFrom(@Param("id") long id, @Param("owner") String owner, @Param("previous") String previous);

    /** The holder of row {@code id} now ({@code null} when none, or no such row). */
    @Select("SELECT holder FROM leaf_workerid_alloc WHERE id = #{id}")
    String holderOf(@Param("id") long id);

    /**
     * A plain INSERT, tried only after {@link #findByIpPort} found nothing: {@code INSERT ... ON
     * DUPLICATE KEY UPDATE} would take an AUTO_INCREMENT value on every start, and values are
     * worker ids. Inserted without a holder: the inserting process claims it like any other.
     */
    @Insert("""
            INSERT INTO leaf_workerid_alloc(ip_port, ip, port, max_timestamp)
            VALUES (#{ipPort}, #{ip}, #{port}, 0)""")
    int insert(@Param("ipPort") String ipPort, @Param("ip") String ip, @Param("port") int port);

    /**
     * Moves the reservation forward only (a late or repeated write never shortens it) while
     * {@code owner} holds the row; the write is also the holder's sign of life.
     */
    @Update("""
            UPDATE leaf_workerid_alloc
               SET max_timestamp = GREATEST(max_timestamp, #{reservedUntil}), update_time = CURRENT_TIMESTAMP
             WHERE id = #{id} AND ip_port = #{ipPort} AND holder = #{owner}""")
    int extendReservation(@Param("id") long id, @Param("ipPort") String ipPort, @Param("owner") String owner,
            @Param("reservedUntil") long reservedUntil);

    /**
     * Sets the final reservation on release, which may be earlier than the one recorded: it is
     * just past the last ID the instance issued, so the next start need not wait for more.
     */
    @Update("""
            UPDATE leaf_workerid_alloc
               SET max_timestamp = #{reservedUntil}, holder = NULL
             WHERE id = #{id} AND ip_port = #{ipPort} AND holder = #{owner}""")
    int setReservation(@Param("id") long id, @Param("ipPort") String ipPort, @Param("owner") String owner,
            @Param("reservedUntil") long reservedUntil);

    /**
     * Puts back a deleted row under its old id; an explicit id also moves MySQL's AUTO_INCREMENT
     * counter past it, so the id is not handed to a new instance (PostgreSQL's identity stays
     * behind: an insert that meets the id fails, and the registry inserts again with the next).
     */
    @Insert("""
            INSERT INTO leaf_workerid_alloc(id, ip_port, ip, port, max_timestamp, holder)
            VALUES (#{id}, #{ipPort}, #{ip}, #{port}, #{reservedUntil}, #{owner})""")
    int restore(@Param("id") long id, @Param("ipPort") String ipPort, @Param("ip") String ip,
            @Param("port") int port, @Param("reservedUntil") long reservedUntil, @Param("owner") String owner);

    /** 1 when row {@code id} still belongs to {@code ipPort}, else 0. */
    @Select("SELECT COUNT(*) FROM leaf_workerid_alloc WHERE id = #{id} AND ip_port = #{ipPort}")
    int countOwned(@Param("id") long id, @Param("ipPort") String ipPort);

    /**
     * One instance's row; its worker id is {@code id - 1}. {@code holder} is the process that
     * holds it ({@code null} after a graceful stop), {@code updateTime} its last write and
     * {@code dbNow} the database's time when read.
     */
    record Row(long id, String ipPort, long maxTimestamp, String holder, Timestamp updateTime,
            Timestamp dbNow) {

        /** How long ago the row was last written, on the database's clock. */
        long sinceLastWriteMillis() {
            return dbNow.getTime() - updateTime.getTime();
        }
    }
}
