package org.leafid.client;

/**
 * The size of a buffer's next batch, following the rate of use: one batch should last about the
 * target interval (100 ms), so a busy tag fetches large batches and a quiet one small ones (fewer
 * IDs lost to gaps when the application stops). The interval between two fetches is about the time
 * one batch lasted; the size is scaled by target/interval, at most doubled or halved at a step so
 * that one pause or burst does not swing it, and kept within 1..largest.
 */
final class BatchSizer {

    static final int FIRST_SIZE = 100;

    private int largest;
    private final long targetNanos;
    private int size;
    /** Whether the size is the largest: the rate may outrun one fetch at a time. Read without the lock. */
    private volatile boolean atLargest;
    private long lastFetchNanos;
    private boolean fetchedBefore;

    BatchSizer(int largest, long targetNanos) {
        this.largest = largest;
        this.targetNanos = targetNanos;
        this.size = Math.min(FIRST_SIZE, largest);
    }

    /**
     * A server refused a batch of {@code refused} IDs as too large: its {@code leaf.max-batch} is
     * below the client's. Halves the largest (not below 1) and returns whether it went down.
     */
    synchronized boolean refusedAsTooLarge(int refused) {
        int lower = Math.max(1, Math.min(largest, refused) / 2);
        boolean lowered = lower < largest && refused > 1;
        largest = lowered ? lower : largest;
        size = Math.min(size, largest);
        atLargest = size == largest;
        return lowered;
    }

    boolean atLargest() {
        return atLargest;
    }

    synchronized int largest() {
        return largest;
    }

    /** The size for a fetch starting now; called by one fetch at a time. */
    synchronized int next(long nowNanos) {
        if (fetchedBefore) {
            long interval = Math.max(1, nowNanos - lastFetchNanos);
            double factor = Math.max(0.5, Math.min(2.0, (double) targetNanos / interval));
            double scaled = size * factor;
            // Up rounds up and down rounds down, so that a size of 1 can grow and a large one shrink.
            long rounded = factor >= 1 ? (long) Math.ceil(scaled) : (long) Math.floor(scaled);
            size = (int) Math.max(1, Math.min(largest, rounded));
        }
        fetchedBefore = true;
        lastFetchNanos = nowNanos;
        atLargest = size == largest;
        return size;
    }
}
