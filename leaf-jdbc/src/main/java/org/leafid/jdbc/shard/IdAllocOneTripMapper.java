package org.leafid.jdbc.shard;

import org.apache.ibatis.annotations.Arg;
import org.apache.ibatis.annotations.ConstructorArgs;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.leafid.jdbc.reservation.HighWaterMapper;
import org.leafid.jdbc.reservation.OneTripReservation;

/**
 * A shard block reservation in one round trip, where the database can modify and answer in one
 * statement (PostgreSQL); registered for those databases only. The common case of
 * {@link IdAllocRepository}'s transaction: advance the row's {@code max_id} by {@code blocks} steps,
 * read the (app, shard)'s high-water mark, raise it to the new {@code max_id}. The repository checks
 * the answer against the mark and takes its transaction for everything else. Why the mark is compared
 * where it is raised, not read in the statement's snapshot: see {@code LeafAllocOneTripMapper}.
 */
public interface IdAllocOneTripMapper {

    @Select("""
            WITH advanced AS (
              UPDATE id_alloc
                 SET max_id = max_id + CAST(step AS DECIMAL(20)) * #{blocks}
               WHERE app_id = #{appId}
                 AND shard_id = #{shardId}
                 AND step >= 1
                 AND max_id <= 9223372036854775807 - CAST(step AS DECIMAL(20)) * #{blocks}
              RETURNING max_id, step, CAST(step AS DECIMAL(20)) * #{blocks} AS size
            ), """ + HighWaterMapper.READ_AND_RAISE_MARK + """
            SELECT a.max_id, a.step, EXISTS (SELECT 1 FROM raised) AS above_mark,
            """ + HighWaterMapper.IDENTITY_COLUMNS + """
              FROM advanced a""")
    @ConstructorArgs({
        @Arg(column = "max_id", javaType = long.class),
        @Arg(column = "step", javaType = int.class),
        @Arg(column = "above_mark", javaType = boolean.class),
        @Arg(column = "identity", javaType = String.class),
        @Arg(column = "recorded", javaType = Long.class),
        @Arg(column = "recorded_name", javaType = Long.class)
    })
    // A statement that writes: never answered from MyBatis's session cache.
    @Options(flushCache = Options.FlushCachePolicy.TRUE, useCache = false)
    OneTripReservation reserve(@Param("appId") int appId, @Param("shardId") int shardId, @Param("blocks") long blocks,
            @Param("markName") String markName);
}
