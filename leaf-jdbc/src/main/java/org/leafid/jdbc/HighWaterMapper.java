package org.leafid.jdbc;

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
     * The part of a one-statement reservation (PostgreSQL's data-modifying {@code WITH}) that reads
     * the mark {@code #{markName}} as it was ({@code mark}) and raises it to the {@code max_id} of the
     * statement's {@code advanced} rows, never lowering it; the statement goes on with its final SELECT.
     */
    String READ_AND_RAISE_MARK = """
            mark AS (
              SELECT high FROM leaf_high_water WHERE name = #{markName}
            ), raised AS (
              INSERT INTO leaf_high_water(name, high)
              SELECT #{markName}, max_id FROM advanced
              ON CONFLICT (name) DO UPDATE SET high = GREATEST(leaf_high_water.high, EXCLUDED.high)
            )
            """;


    /**
     * The columns a one-statement reservation on PostgreSQL adds to its answer, so that the check of
     * the database's identity ({@code StoreIdentityGuard#check}) costs no round trip of its own: the
     * identity of the server that ran it, and the one recorded.
     */
    String IDENTITY_COLUMNS = StoreIdentity.POSTGRESQL + " AS identity, (SELECT high FROM leaf_high_water WHERE name = '"
            + StoreIdentityGuard.RECORD + "') AS recorded\n";

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
