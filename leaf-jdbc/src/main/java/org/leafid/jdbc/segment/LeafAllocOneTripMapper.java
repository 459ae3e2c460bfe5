package org.leafid.jdbc.segment;

import org.apache.ibatis.annotations.Arg;
import org.apache.ibatis.annotations.ConstructorArgs;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.leafid.jdbc.reservation.HighWaterMapper;
import org.leafid.jdbc.reservation.OneTripReservation;

/**
 * A block reservation in one round trip, where the database can modify and answer in one
 * statement (PostgreSQL's data-modifying {@code WITH} and {@code UPDATE … RETURNING}); registered
 * for those databases only. It does what {@link LeafAllocRepository}'s transaction does in its
 * common case: advance {@code max_id}, read the tag's high-water mark, raise the mark to the new
 * {@code max_id} (never lowering it). The repository checks the answer against the mark it read and
 * takes its transaction path for everything else (a row below its mark, a missing or exhausted tag).
 *
 * <p>The mark is compared where PostgreSQL locks it and sees its latest version
 * ({@link HighWaterMapper#READ_AND_RAISE_MARK}), not in the statement's snapshot: a reservation of
 * the same tag that committed while this one waited for the row lock, followed by an operator
 * setting {@code max_id} back, would otherwise let this block pass a mark older than the block
 * that reservation served.
 */
public interface LeafAllocOneTripMapper {

    @Select("""
            WITH advanced AS (
              UPDATE leaf_alloc
                 SET max_id = max_id + GREATEST(#{step}, step)
               WHERE biz_tag = #{tag}
                 AND max_id <= 9223372036854775807 - GREATEST(#{step}, step)
              RETURNING biz_tag, max_id, step, GREATEST(#{step}, step) AS size
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
    OneTripReservation reserve(@Param("tag") String tag, @Param("step") long step, @Param("markName") String markName);
}
