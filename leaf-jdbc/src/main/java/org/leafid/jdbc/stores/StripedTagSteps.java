package org.leafid.jdbc.stores;

import org.apache.ibatis.session.SqlSession;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.Stripes;
import org.leafid.core.segment.TagExhaustedException;
import org.leafid.jdbc.reservation.OneTripReservation;
import org.leafid.jdbc.reservation.ReservationSteps;
import org.leafid.jdbc.segment.LeafAllocMapper;
import org.leafid.jdbc.segment.LeafAllocSteps;

/**
 * One tag's row in one of several stores: Leaf's UPDATE (which locks the row) and SELECT
 * ({@link LeafAllocSteps}), then the block moved up to the first place at or above both the row's
 * old {@code max_id} and the server's floor that lies inside one of this store's stripes;
 * {@code max_id} is set to the block's end.
 */
record StripedTagSteps(LeafAllocSteps leaf, long from, Stripes stripes, long generation)
        implements ReservationSteps<AllocRow> {

    /**
     * The store serves another numbering than the one the stripes came from, or is frozen for a
     * renumbering: nothing was reserved. Carries the store's generation, or -1 while it is frozen.
     */
    static final class OtherNumbering extends RuntimeException {

        private final long generation;

        OtherNumbering(long generation) {
            super("the store serves numbering " + generation, null, false, false);
            this.generation = generation;
        }

        long generation() {
            return generation;
        }
    }

    @Override
    public String markKey() {
        return leaf.markKey();
    }

    /** Never: the block's place is computed from the row, so it takes the transaction. */
    @Override
    public boolean oneTrip() {
        return false;
    }

    @Override
    public OneTripReservation reserveInOneTrip(SqlSession session, String markName) {
        throw new UnsupportedOperationException("a striped reservation takes a transaction");
    }

    @Override
    public Advanced advance(SqlSession session) {
        Advanced row = leaf.advance(session, () -> readUnderGeneration(session));
        long size = size(row.step());
        if (size > stripes.width()) {
            throw new SegmentStoreException(leaf.tag(), "a block of " + size + " numbers is wider than a stripe ("
                    + stripes.width() + ", leaf.jdbc.stripe-width): lower the row's step or leaf.segment.max-step"
                    + " (docs/databases.md, \"Several stores\")", null);
        }
        long end;
        try {
            end = Math.addExact(stripes.blockStart(Math.max(row.maxId() - size, from), size), size);
        } catch (ArithmeticException noRoom) {
            throw new TagExhaustedException(leaf.tag(), row.maxId(), size);
        }
        if (end != row.maxId()) {
            leaf.moveMaxIdTo(session, end);
        }
        return new Advanced(end, row.step(), 0);
    }

    /**
     * The row Leaf's UPDATE just moved, read with the store's generation under a shared lock: a
     * renumbering freezes the store only after this transaction ends, and one that froze it first is
     * seen here. Under another numbering, or frozen, the UPDATE is rolled back (the row stays where
     * the renumbering read it) and nothing is reserved.
     */
    private AllocRow readUnderGeneration(SqlSession session) {
        long served = -2;
        boolean frozen = false;
        AllocRow row = null;
        for (FleetMapper.RowUnderGeneration read : session.getMapper(FleetMapper.class).rowUnderGeneration(
                leaf.tag())) {
            row = leaf.block(read.maxId(), read.step());
            if (read.name().equals(FleetRecord.GENERATION)) {
                served = read.high();
            } else {
                frozen = read.high() != 0;
            }
        }
        if (row == null) {
            row = session.getMapper(LeafAllocMapper.class).find(leaf.tag());
            if (row == null) {
                return null;
            }
        }
        if (frozen || served != generation) {
            session.rollback(true);
            throw new OtherNumbering(frozen ? -1 : served);
        }
        return row;
    }

    @Override
    public long startAbove(long mark, long size) {
        return stripes.blockStart(mark, size);
    }

    @Override
    public void moveMaxIdTo(SqlSession session, long maxId) {
        leaf.moveMaxIdTo(session, maxId);
    }

    @Override
    public long size(int step) {
        return leaf.size(step);
    }

    @Override
    public AllocRow block(long maxId, int step) {
        return leaf.block(maxId, step);
    }

    @Override
    public RuntimeException noRoomAbove(Advanced row, long mark) {
        return leaf.noRoomAbove(row, mark);
    }

    @Override
    public RuntimeException failure(String detail, Throwable cause) {
        return leaf.failure(detail, cause);
    }
}
