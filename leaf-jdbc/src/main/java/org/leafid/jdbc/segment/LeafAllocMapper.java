package org.leafid.jdbc.segment;

import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Arg;
import org.apache.ibatis.annotations.ConstructorArgs;
import org.apache.ibatis.annotations.Insert;
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

    /**
     * Moves a row's {@code max_id} forward to {@code maxId}, within the reservation that found it
     * below its high-water mark (the row is locked by that reservation's UPDATE).
     */
    @Update("UPDATE leaf_alloc SET max_id = #{maxId} WHERE biz_tag = #{tag} AND max_id < #{maxId}")
    int moveMaxIdTo(@Param("tag") String tag, @Param("maxId") long maxId);

    @Select("SELECT biz_tag, max_id, step FROM leaf_alloc WHERE biz_tag = #{tag}")
    @ConstructorArgs({
        @Arg(column = "biz_tag", javaType = String.class),
        @Arg(column = "max_id", javaType = long.class),
        @Arg(column = "step", javaType = int.class)
    })
    AllocRow find(@Param("tag") String tag);

    @Select("SELECT biz_tag FROM leaf_alloc ORDER BY biz_tag")
    List<String> tags();

    /** Every row in full, for the tags view and the admin API. */
    @Select("SELECT biz_tag, max_id, step, description, update_time FROM leaf_alloc ORDER BY biz_tag")
    @ConstructorArgs({
        @Arg(column = "biz_tag", javaType = String.class),
        @Arg(column = "max_id", javaType = long.class),
        @Arg(column = "step", javaType = int.class),
        @Arg(column = "description", javaType = String.class),
        @Arg(column = "update_time", javaType = Instant.class)
    })
    List<TagRow> rows();

    @Select("SELECT biz_tag, max_id, step, description, update_time FROM leaf_alloc WHERE biz_tag = #{tag}")
    @ConstructorArgs({
        @Arg(column = "biz_tag", javaType = String.class),
        @Arg(column = "max_id", javaType = long.class),
        @Arg(column = "step", javaType = int.class),
        @Arg(column = "description", javaType = String.class),
        @Arg(column = "update_time", javaType = Instant.class)
    })
    TagRow row(@Param("tag") String tag);

    /**
     * A plain INSERT, as an operator would write it: an existing tag fails on the primary key,
     * which the caller turns into "tag exists". {@code update_time} is left to the database.
     */
    @Insert("""
            INSERT INTO leaf_alloc(biz_tag, max_id, step, description)
            VALUES (#{tag}, #{maxId}, #{step}, #{description,jdbcType=VARCHAR})""")
    int insert(@Param("tag") String tag, @Param("maxId") long maxId, @Param("step") int step,
            @Param("description") String description);

    /** Sets the row's step: the minimum block size from each instance's next load on. */
    @Update("UPDATE leaf_alloc SET step = #{step} WHERE biz_tag = #{tag}")
    int updateStep(@Param("tag") String tag, @Param("step") int step);

    /** A whole {@code leaf_alloc} row; {@code description} may be null. */
    record TagRow(String tag, long maxId, int step, String description, Instant updateTime) {}
}
