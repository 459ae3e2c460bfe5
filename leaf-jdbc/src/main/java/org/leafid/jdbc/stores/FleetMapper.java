package org.leafid.jdbc.stores;

import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/**
 * The statements of several stores on {@code leaf_high_water} and {@code leaf_alloc} that the
 * plain mappers lack: the numbering's generation read under a lock, and a store's highest number.
 */
public interface FleetMapper {

    /**
     * The store's generation, read with a shared lock in a reservation's transaction: a renumbering
     * ({@link #lockGeneration}) waits for the reservations that read the old one, and those after it
     * read the new one. Negative while the store is frozen for a renumbering.
     */
    @Select("SELECT CASE WHEN COALESCE((SELECT high FROM leaf_high_water WHERE name = '" + FleetRecord.FROZEN
            + "'), 0) = 0 THEN high ELSE -1 END FROM leaf_high_water WHERE name = '" + FleetRecord.GENERATION
            + "' LOCK IN SHARE MODE")
    @Select(databaseId = "postgresql", value = "SELECT CASE WHEN COALESCE((SELECT high FROM leaf_high_water"
            + " WHERE name = '" + FleetRecord.FROZEN + "'), 0) = 0 THEN high ELSE -1 END FROM leaf_high_water"
            + " WHERE name = '" + FleetRecord.GENERATION + "' FOR SHARE")
    Long generationShared();

    /** The store's generation, locked until the renumbering's transaction ends. */
    @Select("SELECT high FROM leaf_high_water WHERE name = '" + FleetRecord.GENERATION + "' FOR UPDATE")
    Long lockGeneration();

    /** The highest number any block of this store reached: its rows and its marks. */
    @Select("SELECT GREATEST(COALESCE((SELECT MAX(max_id) FROM leaf_alloc), 0), COALESCE((SELECT MAX(high)"
            + " FROM leaf_high_water WHERE name LIKE #{markPattern}), 0))")
    long highestNumber(@Param("markPattern") String markPattern);
}
