package org.leafid.jdbc.shard;

import java.util.List;
import org.apache.ibatis.annotations.Arg;
import org.apache.ibatis.annotations.ConstructorArgs;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/** SQL on {@code id_alloc} (the Redis-queue services' table, unchanged); every value is a bound parameter. */
public interface IdAllocMapper {

    /** The columns of {@link IdAllocRow}, in its order. */
    String COLUMNS = "app_id, app_name, shard_id, max_id, step, max_limit_id, description";

    /**
     * Advances {@code max_id} by {@code blocks} times the row's step, unless that would pass
     * {@link Long#MAX_VALUE} (written as a subtraction so the database never computes an
     * overflowing sum) or the row's step is below 1 (an edited row would otherwise move
     * {@code max_id} back and issue its indexes again). The step is cast to DECIMAL first: H2 types
     * {@code step * ?} as the INT of the column and fails past 2^31 (MySQL would use BIGINT), and
     * DECIMAL(20) holds any int times int exactly on every database.
     */
    @Update("""
            UPDATE id_alloc
               SET max_id = max_id + CAST(step AS DECIMAL(20)) * #{blocks}
             WHERE app_id = #{appId}
               AND shard_id = #{shardId}
               AND step >= 1
               AND max_id <= 9223372036854775807 - CAST(step AS DECIMAL(20)) * #{blocks}""")
    int advanceMaxId(@Param("appId") int appId, @Param("shardId") int shardId, @Param("blocks") long blocks);

    /**
     * Moves a row's {@code max_id} forward to {@code maxId}, within the reservation that found it
     * below its high-water mark (the row is locked by that reservation's UPDATE).
     */
    @Update("""
            UPDATE id_alloc SET max_id = #{maxId}
             WHERE app_id = #{appId} AND shard_id = #{shardId} AND max_id < #{maxId}""")
    int moveMaxIdTo(@Param("appId") int appId, @Param("shardId") int shardId, @Param("maxId") long maxId);

    @Select("SELECT " + COLUMNS + " FROM id_alloc WHERE app_id = #{appId} AND shard_id = #{shardId}")
    @ConstructorArgs({
        @Arg(column = "app_id", javaType = int.class),
        @Arg(column = "app_name", javaType = String.class),
        @Arg(column = "shard_id", javaType = int.class),
        @Arg(column = "max_id", javaType = long.class),
        @Arg(column = "step", javaType = int.class),
        @Arg(column = "max_limit_id", javaType = long.class),
        @Arg(column = "description", javaType = String.class)
    })
    IdAllocRow find(@Param("appId") int appId, @Param("shardId") int shardId);

    @Select("SELECT COUNT(*) FROM id_alloc WHERE app_id = #{appId}")
    int countRows(@Param("appId") int appId);

    /** Every row, by app and shard: for {@code apps()} and the apps view. */
    @Select("SELECT " + COLUMNS + " FROM id_alloc ORDER BY app_id, shard_id")
    @ConstructorArgs({
        @Arg(column = "app_id", javaType = int.class),
        @Arg(column = "app_name", javaType = String.class),
        @Arg(column = "shard_id", javaType = int.class),
        @Arg(column = "max_id", javaType = long.class),
        @Arg(column = "step", javaType = int.class),
        @Arg(column = "max_limit_id", javaType = long.class),
        @Arg(column = "description", javaType = String.class)
    })
    List<IdAllocRow> rows();

    @Select("SELECT " + COLUMNS + " FROM id_alloc WHERE app_id = #{appId} ORDER BY shard_id")
    @ConstructorArgs({
        @Arg(column = "app_id", javaType = int.class),
        @Arg(column = "app_name", javaType = String.class),
        @Arg(column = "shard_id", javaType = int.class),
        @Arg(column = "max_id", javaType = long.class),
        @Arg(column = "step", javaType = int.class),
        @Arg(column = "max_limit_id", javaType = long.class),
        @Arg(column = "description", javaType = String.class)
    })
    List<IdAllocRow> rowsOf(@Param("appId") int appId);

    /**
     * A plain INSERT of one shard's row: an existing row fails on the primary key, which the
     * caller turns into "app exists". {@code max_id} is given, not left to the column's default
     * of 1: their services create rows at 0, whose first block is 1..step.
     */
    @Insert("""
            INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, description, max_limit_id)
            VALUES (#{appId}, #{appName}, #{maxId}, #{shardId}, #{step}, #{description,jdbcType=VARCHAR},
                    #{maxLimitId})""")
    int insert(@Param("appId") int appId, @Param("appName") String appName, @Param("maxId") long maxId,
            @Param("shardId") int shardId, @Param("step") int step, @Param("description") String description,
            @Param("maxLimitId") long maxLimitId);
}
