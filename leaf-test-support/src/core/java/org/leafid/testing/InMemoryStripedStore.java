package org.leafid.testing;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.FloorSegmentStore;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.Stripes;
import org.leafid.core.segment.UnknownTagException;

/**
 * One of several stores in memory, with the semantics of the striped {@code leaf_alloc} reservation:
 * a block of {@code max(requested, step)} numbers at or above both {@code max_id} and the floor asked
 * for, inside one of the store's own stripes; the row's {@code max_id} set to its end. Tests can make
 * it fail, stall it, or set a row back. Thread-safe.
 */
public final class InMemoryStripedStore implements FloorSegmentStore {

    private record Row(long maxId, int step) {}

    private final Stripes stripes;
    private final Map<String, Row> rows = new TreeMap<>();
    private volatile boolean down;
    private volatile CountDownLatch stall;

    public InMemoryStripedStore(Stripes stripes) {
        this.stripes = stripes;
    }

    public synchronized InMemoryStripedStore put(String tag, long maxId, int step) {
        rows.put(tag, new Row(maxId, step));
        return this;
    }

    /** Sets the row back, as a restored backup would. */
    public synchronized void setMaxId(String tag, long maxId) {
        rows.put(tag, new Row(maxId, rows.get(tag).step()));
    }

    public synchronized long maxId(String tag) {
        return rows.get(tag).maxId();
    }

    /** While on, every call fails, as a database that is down. */
    public void down(boolean down) {
        this.down = down;
    }

    /** Holds every call until {@code latch} opens (null: none held), as a database SIGSTOPped. */
    public void stallUntil(CountDownLatch latch) {
        this.stall = latch;
    }

    public Stripes stripes() {
        return stripes;
    }

    @Override
    public AllocRow reserveFrom(String tag, long requestedStep, long from) {
        answerOrFail(tag);
        synchronized (this) {
            Row row = rows.get(tag);
            if (row == null) {
                throw new UnknownTagException(tag);
            }
            long size = Math.max(requestedStep, row.step());
            if (size > stripes.width()) {
                throw new SegmentStoreException(tag, "a block of " + size + " is wider than a stripe", null);
            }
            long start = stripes.blockStart(Math.max(row.maxId(), from), size);
            rows.put(tag, new Row(start + size, row.step()));
            return new AllocRow(tag, start + size, row.step());
        }
    }

    @Override
    public List<String> tags() {
        answerOrFail(null);
        synchronized (this) {
            return List.copyOf(rows.keySet());
        }
    }

    private void answerOrFail(String tag) {
        CountDownLatch latch = stall;
        if (latch != null) {
            try {
                latch.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SegmentStoreException(tag, "interrupted while stalled (test)", e);
            }
        }
        if (down) {
            throw new SegmentStoreException(tag, "store is down (test)", null);
        }
    }
}
