package org.leafid.client;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One fetched batch: the IDs and a cursor that threads advance with one atomic add each; an index
 * at or past the end means the batch is spent (such claims take nothing, so nothing is lost). The
 * cursor may start past 0 (IDs before it are not served). {@code prefetchAt} is the index whose
 * taker starts fetching the next batch.
 */
final class Batch {

    final long[] ids;
    final int prefetchAt;
    final AtomicInteger cursor;

    Batch(long[] ids, int start, double prefetchThreshold) {
        this.ids = ids;
        this.cursor = new AtomicInteger(start);
        int left = ids.length - start;
        this.prefetchAt = left <= 0 ? -1 : start + Math.min(left - 1, (int) (left * prefetchThreshold));
    }

    static Batch empty() {
        return new Batch(new long[0], 0, 0);
    }

    int remaining() {
        return Math.max(0, ids.length - cursor.get());
    }
}
