package org.leafid.client;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One fetched batch: the IDs and a cursor that threads advance to claim indexes (a compare-and-set
 * each, or one atomic add for a batch of IDs); an index at or past the end means the batch is spent.
 * The cursor may start past 0 (IDs before it are not served). {@code prefetchAt} is the index whose
 * claimer starts fetching the next batch.
 */
final class Batch {

    final long[] ids;
    final int prefetchAt;
    final AtomicInteger cursor;
    /**
     * The most indexes a thread claims at a time from this batch: at most 1/1024 of it, so that what
     * threads hold when it stops being current is a small part of a large batch, and none of a small one.
     */
    final int mostPerClaim;

    Batch(long[] ids, int start, double prefetchThreshold) {
        this.ids = ids;
        this.cursor = new AtomicInteger(start);
        int left = ids.length - start;
        this.mostPerClaim = Math.max(1, Math.min(PrefetchBuffer.MOST_PER_CLAIM, ids.length / 1024));
        this.prefetchAt = left <= 0 ? -1 : start + Math.min(left - 1, (int) (left * prefetchThreshold));
    }

    static Batch empty() {
        return new Batch(new long[0], 0, 0);
    }

    int remaining() {
        return Math.max(0, ids.length - cursor.get());
    }
}
