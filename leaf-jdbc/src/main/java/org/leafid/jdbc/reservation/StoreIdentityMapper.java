package org.leafid.jdbc.reservation;

import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/**
 * The statements of {@link StoreIdentityGuard}: the recorded identity of the database this fleet
 * writes to (a row of {@code leaf_high_water}), and the skip of every row after it changed. Plain
 * SQL that MySQL, MariaDB, H2 and PostgreSQL read alike.
 */
public interface StoreIdentityMapper {

    /** The recorded identity, locked until the transaction ends; null when none is recorded. */
    @Select("SELECT high FROM leaf_high_water WHERE name = #{name} FOR UPDATE")
    Long lockRecorded(@Param("name") String name);

    /**
     * How many blocks' marks there are (segment tags' and shards'; not the apps' mode marks, which a
     * start writes): none means nothing was ever reserved.
     */
    @Select("SELECT COUNT(*) FROM leaf_high_water WHERE name LIKE 'leaf_alloc:%'"
            + " OR (name LIKE 'id_alloc:%' AND name NOT LIKE '%:mode=%')")
    long reservationMarks();

    /** A recorded value, read without a lock (the caller holds {@link #lockRecorded}'s). */
    @Select("SELECT high FROM leaf_high_water WHERE name = #{name}")
    Long recorded(@Param("name") String name);

    @Update("UPDATE leaf_high_water SET high = #{high} WHERE name = #{name}")
    int record(@Param("name") String name, @Param("high") long high);

    /** The database's clock in milliseconds since the epoch: when it changed, and how long ago that was. */
    @Select("SELECT ROUND(UNIX_TIMESTAMP(CURRENT_TIMESTAMP(3)) * 1000)")
    @Select(databaseId = "postgresql", value = "SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint")
    long databaseMillis();

    /**
     * Moves every segment tag {@code blocks} blocks forward, each of its step or {@code largest},
     * whichever is larger (the dynamic step reserves up to {@code largest}); a row that would pass
     * 2^63 - 1 stays.
     */
    @Update("UPDATE leaf_alloc SET max_id = max_id + #{blocks} * GREATEST(step, #{largest})"
            + " WHERE max_id <= 9223372036854775807 - #{blocks} * GREATEST(step, #{largest})")
    int skipLeafAlloc(@Param("blocks") long blocks, @Param("largest") long largest);

    /** Moves every shard-mode (app, shard) forward as {@link #skipLeafAlloc} does its tags. */
    @Update("UPDATE id_alloc SET max_id = max_id + #{blocks} * GREATEST(step, #{largest})"
            + " WHERE max_id <= 9223372036854775807 - #{blocks} * GREATEST(step, #{largest})")
    int skipIdAlloc(@Param("blocks") long blocks, @Param("largest") long largest);
}
