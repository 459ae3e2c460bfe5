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
     * The store's generation and whether it is frozen, read with a shared lock in a reservation's
     * transaction: a renumbering ({@link #lockGeneration}) waits for the reservations that read the
     * old one, and those after it read the new one. A locking read only, so that InnoDB takes no
     * snapshot here: the reservation's later reads (its high-water mark) must see what other servers
     * committed while it waited for the row's lock.
     */
    @Select("SELECT name, high FROM leaf_high_water WHERE name IN ('" + FleetRecord.GENERATION + "', '"
            + FleetRecord.FROZEN + "') LOCK IN SHARE MODE")
    @Select(databaseId = "postgresql", value = "SELECT name, high FROM leaf_high_water WHERE name IN ('"
            + FleetRecord.GENERATION + "', '" + FleetRecord.FROZEN + "') FOR SHARE")
    @ConstructorArgs({
        @Arg(column = "name", javaType = String.class),
        @Arg(column = "high", javaType = long.class)
    })
    List<Mark> generationShared();

    /** A row of {@code leaf_high_water}. */
    record Mark(String name, long high) {}

    /**
     * The store's generation and frozen rows, locked until the renumbering's transaction ends: both
     * in one statement, in the same order as {@link #generationShared} takes them, so that the two
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
