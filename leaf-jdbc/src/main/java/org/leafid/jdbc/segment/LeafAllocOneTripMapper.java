package org.leafid.jdbc.segment;

import org.apache.ibatis.annotations.Arg;
import org.apache.ibatis.annotations.ConstructorArgs;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.leafid.jdbc.HighWaterMapper;

/**
 * A block reservation in one round trip, where the database can modify and answer in one
 * statement (PostgreSQL's data-modifying {@code WITH} and {@code UPDATE … RETURNING}); registered
 * for those databases only. It does what {@link LeafAllocRepository}'s transaction does in its
 * common case: advance {@code max_id}, read the tag's high-water mark, raise the mark to the new
 * {@code max_id} (never lowering it). The repository checks the answer against the mark it read and
 * takes its transaction path for everything else (a row below its mark, a missing or exhausted tag).
 *
 * <p>The mark is read in the statement's snapshot, which a reservation of the same tag committed
 * while this one waited for the row lock may have left behind. That older mark is never the one
 * that matters: whoever raised the mark since did so under the same row lock, after moving
 * {@code max_id} at least as high, and this statement's UPDATE advances from that new
 * {@code max_id} (PostgreSQL re-reads a locked row once it is free).
 */
public interface LeafAllocOneTripMapper {

    @Select("""
            WITH advanced AS (
              UPDATE leaf_alloc
                 SET max_id = max_id + GREATEST(#{step}, step)
               WHERE biz_tag = #{tag}
                 AND max_id <= 9223372036854775807 - GREATEST(#{step}, step)
              RETURNING biz_tag, max_id, step
            ), """ + HighWaterMapper.READ_AND_RAISE_MARK + """
            SELECT a.biz_tag, a.max_id, a.step, COALESCE((SELECT high FROM mark), 0) AS mark,
            """ + HighWaterMapper.IDENTITY_COLUMNS + """
              FROM advanced a""")
    @ConstructorArgs({
        @Arg(column = "biz_tag", javaType = String.class),
        @Arg(column = "max_id", javaType = long.class),
        @Arg(column = "step", javaType = int.class),
        @Arg(column = "mark", javaType = long.class),
        @Arg(column = "identity", javaType = String.class),
        @Arg(column = "recorded", javaType = Long.class)
    })
    // A statement that writes: never answered from MyBatis's session cache.
    @Options(flushCache = Options.FlushCachePolicy.TRUE, useCache = false)
    Reserved reserve(@Param("tag") String tag, @Param("step") long step, @Param("markName") String markName);

    /** The row as the reservation left it, the tag's mark before it, and the database's identity now and as recorded. */
    record Reserved(String tag, long maxId, int step, long markBefore, String identity, Long recorded) {}
}
