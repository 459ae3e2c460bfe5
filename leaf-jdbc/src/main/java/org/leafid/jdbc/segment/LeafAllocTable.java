package org.leafid.jdbc.segment;

import java.util.List;
import java.util.Optional;
import org.leafid.core.segment.SegmentTagCreator;
import org.leafid.jdbc.segment.LeafAllocMapper.TagRow;

/**
 * {@code leaf_alloc} as the tags view, the admin API and the formats read and write it: one
 * database's table ({@link LeafAllocRepository}), or the tables of several stores together.
 */
public interface LeafAllocTable extends SegmentTagCreator {

    /** Every row, sorted by tag. */
    List<TagRow> rows();

    Optional<TagRow> row(String tag);

    /**
     * Inserts a row and returns it as stored.
     *
     * @return empty when the tag already has a row
     */
    Optional<TagRow> insert(String tag, long maxId, int step, String description);

    /**
     * Sets a row's step and returns the row after the change.
     *
     * @return empty when the tag has no row
     */
    Optional<TagRow> changeStep(String tag, int step);

    /** The highest {@code max_id} ever reserved for the tag (its high-water mark), 0 when none. */
    long highestMark(String tag);
}
