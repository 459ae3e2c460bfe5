package org.leafid.jdbc.reservation;

import org.apache.ibatis.session.SqlSession;

/**
 * What one table contributes to a {@link GuardedReservation}: its statements and its answers for
 * one row ({@code leaf_alloc}'s tag, {@code id_alloc}'s app and shard). Everything else — retries,
 * the store's identity, the high-water mark, a row that went back — is the pipeline's, written once.
 *
 * @param <B> the block the table serves
 */
public interface ReservationSteps<B> {

    /** The row's key among the table's high-water marks. */
    String markKey();

    /**
     * The reservation in one statement, on databases that register a one-trip mapper.
     *
     * @param markName the row's name in {@code leaf_high_water}
     * @return null where the row is missing or its advance was refused: the transaction decides
     */
    OneTripReservation reserveInOneTrip(SqlSession session, String markName);

    /**
     * Leaf's UPDATE then SELECT in the caller's transaction: the row after {@code max_id} moved by
     * one block.
     *
     * @throws RuntimeException the table's own refusal (an unknown tag or app, an exhausted row),
     *     which the pipeline passes on unchanged
     */
    Advanced advance(SqlSession session);

    /**
     * Whether the block may be reserved in one statement where the database can: not when its place
     * is computed from the row (one of several stores, whose blocks lie in their own stripes).
     */
    default boolean oneTrip() {
        return true;
    }

    /**
     * Where a block of {@code size} numbers of a row found below its mark starts: at the mark, or
     * the first place above it the table's numbering allows (one of several stores: its own stripe).
     */
    default long startAbove(long mark, long size) {
        return mark;
    }

    /** Moves the row's {@code max_id}, in the caller's transaction, past a mark it was found below. */
    void moveMaxIdTo(SqlSession session, long maxId);

    /** How many numbers a block of a row with this step holds. */
    long size(int step);

    /** The block that ends at {@code maxId}. */
    B block(long maxId, int step);

    /** Refusal when no block fits above the mark before {@code Long.MAX_VALUE}. */
    RuntimeException noRoomAbove(Advanced row, long mark);

    /**
     * The table's failure for a block that could not be reserved.
     *
     * @param detail what went wrong, beginning as it follows "could be reserved" (": …" or " in …: …")
     */
    RuntimeException failure(String detail, Throwable cause);

    /**
     * A row as Leaf's UPDATE left it.
     *
     * @param maxIdLimit the row's own ceiling of IDs where the table has one ({@code id_alloc}'s
     *     {@code max_limit_id}), else 0
     */
    record Advanced(long maxId, int step, long maxIdLimit) {}
}
