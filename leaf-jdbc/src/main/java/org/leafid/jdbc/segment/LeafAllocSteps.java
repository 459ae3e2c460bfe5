package org.leafid.jdbc.segment;

import java.util.function.Supplier;
import org.apache.ibatis.session.SqlSession;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.TagExhaustedException;
import org.leafid.core.segment.UnknownTagException;
import org.leafid.jdbc.reservation.OneTripReservation;
import org.leafid.jdbc.reservation.ReservationSteps;

/**
 * One tag's row: Leaf's UPDATE {@code max_id = max_id + GREATEST(requested, step)}, then SELECT;
 * the block is {@code [max_id - size, max_id)}.
 */
public record LeafAllocSteps(String tag, long requestedStep) implements ReservationSteps<AllocRow> {

    @Override
    public String markKey() {
        return tag;
    }

    @Override
    public OneTripReservation reserveInOneTrip(SqlSession session, String markName) {
        return session.getMapper(LeafAllocOneTripMapper.class).reserve(tag, requestedStep, markName);
    }

    @Override
    public Advanced advance(SqlSession session) {
        return advance(session, () -> session.getMapper(LeafAllocMapper.class).find(tag));
    }

    /**
     * Leaf's UPDATE, then the row as {@code read} finds it after it (null: no such tag); a table
     * that reads more with the row (several stores: their generation) passes its own read.
     */
    public Advanced advance(SqlSession session, Supplier<AllocRow> read) {
        int updated = session.getMapper(LeafAllocMapper.class).advanceMaxId(tag, requestedStep);
        AllocRow row = read.get();
        if (row == null) {
            throw new UnknownTagException(tag);
        }
        if (updated == 0) {
            throw new TagExhaustedException(tag, row.maxId(), size(row.step()));
        }
        return new Advanced(row.maxId(), row.step(), 0);
    }

    @Override
    public void moveMaxIdTo(SqlSession session, long maxId) {
        session.getMapper(LeafAllocMapper.class).moveMaxIdTo(tag, maxId);
    }

    @Override
    public long size(int step) {
        return Math.max(requestedStep, step);
    }

    @Override
    public AllocRow block(long maxId, int step) {
        return new AllocRow(tag, maxId, step);
    }

    @Override
    public RuntimeException noRoomAbove(Advanced row, long mark) {
        return new TagExhaustedException(tag, mark, size(row.step()));
    }

    @Override
    public RuntimeException failure(String detail, Throwable cause) {
        return new SegmentStoreException(tag, "no block could be reserved" + detail, cause);
    }
}
