package org.leafid.jdbc.reservation;

import java.util.List;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/**
 * SQL on {@code leaf_high_water} ({@code sql/leaf_high_water.sql}); every value is a bound
 * parameter. Plain statements that MySQL, MariaDB, H2 and PostgreSQL read alike: no upsert
 * dialect, since every write runs while the caller holds the row lock of the block it marks.
 */
public interface HighWaterMapper {

    /**
     * The part of a one-statement reservation (PostgreSQL's data-modifying {@code WITH}) that raises
     * the mark {@code #{markName}} to the {@code max_id} of the statement's {@code advanced} row only
     * when the block it reserved ({@code size} numbers below that {@code max_id}) starts at or above
     * the mark, and answers the raised row ({@code raised}: none when the block lies below the mark).
     *
     * <p>The comparison is made in {@code ON CONFLICT DO UPDATE}, which locks the mark's row and sees
     * its latest committed version, not the statement's snapshot: a snapshot taken before another
     * server's reservation committed may hold an older mark, and a row an operator set back meanwhile
     * would let that block pass a stale mark.
     */
    String READ_AND_RAISE_MARK = """
            raised AS (
              INSERT INTO leaf_high_water(name, high)
              SELECT #{markName}, max_id FROM advanced
              ON CONFLICT (name) DO UPDATE SET high = EXCLUDED.high
               WHERE leaf_high_water.high <= EXCLUDED.high - (SELECT size FROM advanced)
              RETURNING high
            )
            """;

    /**
     * The columns a one-statement reservation on PostgreSQL adds to its answer, so that the check of
     * the database's identity ({@code StoreIdentityGuard#check}) costs no round trip of its own: the
     * identity of the server that ran it, and the one recorded.
     */
    String IDENTITY_COLUMNS = StoreIdentity.POSTGRESQL + " AS identity, (SELECT high FROM leaf_high_water WHERE name = '"
            + StoreIdentityGuard.RECORD + "') AS recorded, (SELECT high FROM leaf_high_water WHERE name = '"
            + StoreIdentityGuard.DATABASE + "') AS recorded_name\n";

    @Select("SELECT high FROM leaf_high_water WHERE name = #{name}")
    Long high(@Param("name") String name);

    /** The highest mark of the names that start with {@code prefix} (an app's 64 shards). */
    @Select("SELECT MAX(high) FROM leaf_high_water WHERE name LIKE #{prefix}")
    Long highestLike(@Param("prefix") String prefix);

    /** The names that start with {@code prefix}: an app's mode marks. */
    @Select("SELECT name FROM leaf_high_water WHERE name LIKE #{prefix} ORDER BY name")
    List<String> namesLike(@Param("prefix") String prefix);

    /** Raises the mark, never lowers it; 0 rows when it is already at or above {@code high}, or missing. */
    @Update("UPDATE leaf_high_water SET high = #{high} WHERE name = #{name} AND high < #{high}")
    int raise(@Param("name") String name, @Param("high") long high);

    @Insert("INSERT INTO leaf_high_water(name, high) VALUES (#{name}, #{high})")
    int insert(@Param("name") String name, @Param("high") long high);

}
