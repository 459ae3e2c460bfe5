package org.leafid.jdbc.stores;

import org.apache.ibatis.session.SqlSession;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.Stripes;
import org.leafid.core.segment.TagExhaustedException;
import org.leafid.jdbc.reservation.OneTripReservation;
import org.leafid.jdbc.reservation.ReservationSteps;
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
        // Under a shared lock on the store's generation, before the row moves: a renumbering freezes the
        // store only after this transaction ends, and a reservation after it reads the store frozen.
        long served = -2;
        boolean frozen = false;
        for (FleetMapper.Mark mark : session.getMapper(FleetMapper.class).generationShared()) {
            if (mark.name().equals(FleetRecord.GENERATION)) {
                served = mark.high();
            } else {
                frozen = mark.high() != 0;
            }
        }
        if (frozen || served != generation) {
            throw new OtherNumbering(frozen ? -1 : served);
        }
        Advanced row = leaf.advance(session);
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
