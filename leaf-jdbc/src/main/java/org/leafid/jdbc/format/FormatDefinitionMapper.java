package org.leafid.jdbc.format;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/** SQL on {@code leaf_format} ({@code sql/leaf_format.sql}); every value is a bound parameter. */
public interface FormatDefinitionMapper {

    @Select("SELECT definition FROM leaf_format WHERE tag = #{tag}")
    String definition(@Param("tag") String tag);

    /** A plain INSERT: a definition already recorded fails on the primary key and is never overwritten. */
    @Insert("INSERT INTO leaf_format(tag, definition) VALUES (#{tag}, #{definition})")
    int insert(@Param("tag") String tag, @Param("definition") String definition);
}
