package org.leafid.server.segment;

import java.util.List;
import org.apache.ibatis.annotations.Arg;
import org.apache.ibatis.annotations.ConstructorArgs;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;
import org.leafid.core.segment.AllocRow;

/** SQL on {@code leaf_alloc}; every value is a bound parameter. */
public interface LeafAllocMapper {

    /**
     * Advances {@code max_id} by {@code GREATEST(step, row step)} unless that would pass
     * {@link Long#MAX_VALUE}; the guard is written as a subtraction so the database never
     * computes an overflowing sum.
     */
    @Update("""
            UPDATE leaf_alloc
               SET max_id = max_id + GREATEST(#{step}, step)
             WHERE biz_tag = #{tag}
               AND max_id <= 9223372036854775807 - GREATEST(#{step}, step)""")
    int advanceMaxId(@Param("tag") String tag, @Param("step") long step);

    @Select("SELECT biz_tag, max_id, step FROM leaf_alloc WHERE biz_tag = #{tag}")
    @ConstructorArgs({
        @Arg(column = "biz_tag", javaType = String.class),
        @Arg(column = "max_id", javaType = long.class),
        @Arg(column = "step", javaType = int.class)
    })
    AllocRow find(@Param("tag") String tag);

    @Select("SELECT biz_tag FROM leaf_alloc ORDER BY biz_tag")
    List<String> tags();
}
