package org.leafid.jdbc.worker;

import org.apache.ibatis.annotations.Arg;
import org.apache.ibatis.annotations.ConstructorArgs;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/** SQL on {@code leaf_workerid_alloc}; every value is a bound parameter. */
public interface WorkerIdAllocMapper {

    @Select("SELECT id, ip_port, max_timestamp FROM leaf_workerid_alloc WHERE ip_port = #{ipPort}")
    @ConstructorArgs({
        @Arg(column = "id", javaType = long.class),
        @Arg(column = "ip_port", javaType = String.class),
        @Arg(column = "max_timestamp", javaType = long.class)
    })
    Row findByIpPort(@Param("ipPort") String ipPort);

    /**
     * A plain INSERT, tried only after {@link #findByIpPort} found nothing: {@code INSERT ... ON
     * DUPLICATE KEY UPDATE} would take an AUTO_INCREMENT value on every start, and values are
     * worker ids.
     */
    @Insert("""
            INSERT INTO leaf_workerid_alloc(ip_port, ip, port, max_timestamp)
            VALUES (#{ipPort}, #{ip}, #{port}, 0)""")
    int insert(@Param("ipPort") String ipPort, @Param("ip") String ip, @Param("port") int port);

    /** Moves the reservation forward only: a late or repeated write never shortens it. */
    @Update("""
            UPDATE leaf_workerid_alloc
               SET max_timestamp = GREATEST(max_timestamp, #{reservedUntil})
             WHERE id = #{id} AND ip_port = #{ipPort}""")
    int extendReservation(@Param("id") long id, @Param("ipPort") String ipPort,
            @Param("reservedUntil") long reservedUntil);

    /**
     * Sets the final reservation on release, which may be earlier than the one recorded: it is
     * just past the last ID the instance issued, so the next start need not wait for more.
     */
    @Update("""
            UPDATE leaf_workerid_alloc
               SET max_timestamp = #{reservedUntil}
             WHERE id = #{id} AND ip_port = #{ipPort}""")
    int setReservation(@Param("id") long id, @Param("ipPort") String ipPort,
            @Param("reservedUntil") long reservedUntil);

    /**
     * Puts back a deleted row under its old id; an explicit id also moves the AUTO_INCREMENT
     * counter past it, so the id is not handed to a new instance.
     */
    @Insert("""
            INSERT INTO leaf_workerid_alloc(id, ip_port, ip, port, max_timestamp)
            VALUES (#{id}, #{ipPort}, #{ip}, #{port}, #{reservedUntil})""")
    int restore(@Param("id") long id, @Param("ipPort") String ipPort, @Param("ip") String ip,
            @Param("port") int port, @Param("reservedUntil") long reservedUntil);

    /** 1 when row {@code id} still belongs to {@code ipPort}, else 0. */
    @Select("SELECT COUNT(*) FROM leaf_workerid_alloc WHERE id = #{id} AND ip_port = #{ipPort}")
    int countOwned(@Param("id") long id, @Param("ipPort") String ipPort);

    /** One instance's row; its worker id is {@code id - 1}. */
    record Row(long id, String ipPort, long maxTimestamp) {}
}
