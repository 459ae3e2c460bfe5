package org.leafid.client;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One fetched batch: the IDs and a cursor that threads advance with one atomic add each; an index
 * at or past the end means the batch is spent (such claims take nothing, so nothing is lost).
 * {@code prefetchAt} is the index whose taker starts fetching the next batch.
 */
final class Batch {

    final long[] ids;
    final int prefetchAt;
    final AtomicInteger cursor = new AtomicInteger();

    Batch(long[] ids, int prefetchAt) {
        this.ids = ids;
        this.prefetchAt = prefetchAt;
    }

    int remaining() {
        return Math.max(0, ids.length - cursor.get());
    }
}
