package org.leafid.jdbc.stores;

import java.util.List;
import org.apache.ibatis.annotations.Arg;
import org.apache.ibatis.annotations.ConstructorArgs;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/**
 * The statements of several stores on {@code leaf_high_water} and {@code leaf_alloc} that the
 * plain mappers lack: the numbering's generation read under a lock, and a store's highest number.
 */
public interface FleetMapper {

    /**
     * A tag's row, read just after Leaf's UPDATE moved it, beside the store's generation and frozen
     * rows read with a shared lock: one statement, so a striped reservation takes no more trips than
     * a single store's. A renumbering ({@link #lockGeneration}) waits for the reservations that read
     * the old generation; one that locked first is read frozen here and rolled back. A locking read,
     * so that InnoDB takes no snapshot before the row's lock was held. No row: the tag is unknown or
     * the store has no generation recorded.
     */
    @Select("SELECT a.max_id, a.step, g.name, g.high FROM leaf_alloc a JOIN leaf_high_water g ON g.name IN ('"
            + FleetRecord.GENERATION + "', '" + FleetRecord.FROZEN + "') WHERE a.biz_tag = #{tag} LOCK IN SHARE MODE")
    @Select(databaseId = "postgresql", value = "SELECT a.max_id, a.step, g.name, g.high FROM leaf_alloc a"
            + " JOIN leaf_high_water g ON g.name IN ('" + FleetRecord.GENERATION + "', '" + FleetRecord.FROZEN
            + "') WHERE a.biz_tag = #{tag} FOR SHARE OF g")
    @ConstructorArgs({
        @Arg(column = "max_id", javaType = long.class),
        @Arg(column = "step", javaType = int.class),
        @Arg(column = "name", javaType = String.class),
        @Arg(column = "high", javaType = long.class)
    })
    List<RowUnderGeneration> rowUnderGeneration(@Param("tag") String tag);

    /** A tag's {@code max_id} and step beside one row of the store's generation. */
    record RowUnderGeneration(long maxId, int step, String name, long high) {}

    /**
     * The store's generation and frozen rows, locked until the renumbering's transaction ends: both
     * in one statement, in the same order as {@link #rowUnderGeneration} takes them, so that the two
     * never wait for each other in a circle.
     */
    @Select("SELECT high FROM leaf_high_water WHERE name IN ('" + FleetRecord.GENERATION + "', '"
            + FleetRecord.FROZEN + "') FOR UPDATE")
    List<Long> lockGeneration();

    /** The highest number any block of this store reached: its rows and its marks. */
    @Select("SELECT GREATEST(COALESCE((SELECT MAX(max_id) FROM leaf_alloc), 0), COALESCE((SELECT MAX(high)"
            + " FROM leaf_high_water WHERE name LIKE #{markPattern}), 0))")
    long highestNumber(@Param("markPattern") String markPattern);
}
