package org.leafid.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.TagExhaustedException;
import org.leafid.core.segment.UnknownTagException;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStore;

/**
 * A real {@link SegmentStore} in memory with the semantics of the {@code leaf_alloc} SQL:
 * {@code max_id = max_id + max(requested, step)} applied atomically, the row after the update
 * returned. Tests can make reservations fail, or hold them at a gate to see what waits for a
 * slow database. Thread-safe.
 */
public final class InMemorySegmentStore implements SegmentStore {

    /** A gate nobody opens must not hang the build: a held reservation gives up after this. */
    private static final Duration GATE_LIMIT = Duration.ofSeconds(30);

    private record Row(long maxId, int step) {}

    // Guarded by this: the row update and the bookkeeping of what it granted are one step.
    private final Map<String, Row> rows = new TreeMap<>();
    private final Map<String, List<Long>> granted = new HashMap<>();

    private volatile boolean failReserves;
    private volatile boolean failTags;
    private volatile CountDownLatch gate;
    private final Semaphore heldAtGate = new Semaphore(0);

    /** Inserts or replaces the row of {@code tag}. */
    public synchronized InMemorySegmentStore put(String tag, long maxId, int step) {
        if (step < 1) {
            throw new IllegalArgumentException("step must be at least 1: " + step);
        }
        rows.put(tag, new Row(maxId, step));
        return this;
    }

    /** Edits the row's step, as an operator would with an UPDATE. */
    public synchronized void setStep(String tag, int step) {
        if (step < 1) {
            throw new IllegalArgumentException("step must be at least 1: " + step);
        }
        Row row = existing(tag);
        rows.put(tag, new Row(row.maxId(), step));
    }

    public synchronized void remove(String tag) {
        rows.remove(tag);
    }

    public synchronized long maxId(String tag) {
        return existing(tag).maxId();
    }

    /** How many reservations of {@code tag} succeeded. */
    public synchronized int reserveCount(String tag) {
        return granted.getOrDefault(tag, List.of()).size();
    }

    /** The size of every block granted to {@code tag}, in order. */
    public synchronized List<Long> reservedSizes(String tag) {
        return List.copyOf(granted.getOrDefault(tag, List.of()));
    }

    /** While on, every reservation throws {@link SegmentStoreException}, as a database that is down. */
    public void failReserves(boolean fail) {
        this.failReserves = fail;
    }

    /** While on, {@link #tags()} throws {@link SegmentStoreException}. */
    public void failTags(boolean fail) {
        this.failTags = fail;
    }

    /**
     * Holds every reservation until {@code latch} opens (null: none held), as a database that
     * hangs; a held reservation then proceeds normally.
     */
    public void holdReservesUntil(CountDownLatch latch) {
        this.gate = latch;
    }

    /** Waits until a reservation is held at the gate; false when none came within {@code timeout}. */
    public boolean awaitHeldReserve(Duration timeout) throws InterruptedException {
        return heldAtGate.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public AllocRow reserve(String tag, long requestedStep) {
        if (requestedStep < 1) {
            throw new IllegalArgumentException("requestedStep must be at least 1: " + requestedStep);
        }
        awaitGate(tag);
        if (failReserves) {
            throw new SegmentStoreException(tag, new IllegalStateException("segment store is down (test)"));
        }
        synchronized (this) {
            Row row = existing(tag);
            long size = Math.max(requestedStep, row.step());
            // MySQL refuses a BIGINT out of range; so does this: no wrap to negative numbers.
            if (row.maxId() > Long.MAX_VALUE - size) {
                throw new TagExhaustedException(tag, row.maxId(), size);
            }
            Row updated = new Row(row.maxId() + size, row.step());
            rows.put(tag, updated);
            granted.computeIfAbsent(tag, t -> new ArrayList<>()).add(size);
            return new AllocRow(tag, updated.maxId(), updated.step());
        }
    }

    @Override
    public synchronized List<String> tags() {
        if (failTags) {
            throw new SegmentStoreException(null, new IllegalStateException("segment store is down (test)"));
        }
        return List.copyOf(rows.keySet());
    }

    private Row existing(String tag) {
        Row row = rows.get(tag);
        if (row == null) {
            throw new UnknownTagException(tag);
        }
        return row;
    }

    private void awaitGate(String tag) {
        CountDownLatch latch = gate;
        if (latch == null) {
            return;
        }
        heldAtGate.release();
        try {
            if (!latch.await(GATE_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new SegmentStoreException(tag, new IllegalStateException("test gate never opened"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SegmentStoreException(tag, e);
        }
    }
}
