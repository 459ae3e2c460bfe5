package org.leafid.core.segment;

/**
 * A store that can be asked for a block above a number: one of several independent stores
 * ({@link MultiStoreSegmentStore}), each owning its own numbers ({@link Stripes}). A server that
 * switches to another store asks it for a block above what it already served, so that its IDs per
 * tag still increase and a store that fell behind is pushed ahead, never read back.
 */
public interface FloorSegmentStore extends SegmentStore {

    /**
     * Reserves a block of {@code max(requestedStep, row step)} numbers that starts at or above
     * {@code from} and holds only this store's numbers, and returns the row after the change: the
     * block is {@code [maxId - size, maxId)}, as {@link #reserve} answers.
     *
     * @param from the lowest number the block may start at; {@link Long#MIN_VALUE} for none
     * @throws UnknownTagException when the tag has no row
     * @throws TagExhaustedException when no such block fits below {@link Long#MAX_VALUE}
     * @throws SegmentStoreException when the store cannot be reached, or the block would be wider
     *     than a stripe
     */
    AllocRow reserveFrom(String tag, long requestedStep, long from);

    /**
     * Whether the store gives blocks now: one listed but not (or no longer) a member of the fleet's
     * numbering gives none, and is not asked.
     */
    default boolean serving() {
        return true;
    }

    @Override
    default AllocRow reserve(String tag, long requestedStep) {
        return reserveFrom(tag, requestedStep, Long.MIN_VALUE);
    }
}
