package org.leafid.core.segment;

import java.util.List;

/**
 * Where segment blocks are reserved: the {@code leaf_alloc} table, shared by every instance.
 * Implementations must be safe for concurrent use by many instances.
 */
public interface SegmentStore {

    /**
     * Atomically advances the tag's {@code max_id} by {@code max(requestedStep, row step)} and
     * returns the row after the change. The caller owns {@code (maxId - thatStep, maxId]} and
     * issues {@code maxId - thatStep} .. {@code maxId - 1}, as Leaf does.
     *
     * @param requestedStep at least 1; pass 1 to reserve exactly the row's own step
     * @throws org.leafid.core.segment.UnknownTagException when the tag has no row
     * @throws org.leafid.core.segment.TagExhaustedException when {@code max_id} would pass {@link Long#MAX_VALUE}
     * @throws org.leafid.core.segment.SegmentStoreException when the store cannot be reached
     */
    AllocRow reserve(String tag, long requestedStep);

    /** The table whose rows the blocks come from, as warnings and errors name it. */
    default String table() {
        return "leaf_alloc";
    }

    /** The tags that have a row now. */
    List<String> tags();
}
