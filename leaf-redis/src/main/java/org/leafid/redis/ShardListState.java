package org.leafid.redis;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What this instance knows of one (app, shard) list: the highest index it popped, the shared
 * watermark as last read, the row's step (learned from the blocks it reserved) and when its list
 * may next be used after a failed refill. Thread-safe.
 */
final class ShardListState {

    final int appId;
    final int shardId;
    final String listKey;
    final String lockKey;

    private final AtomicLong highestPopped = new AtomicLong();
    /** The highest popped that was written to the watermarks, so an unchanged value is not written again. */
    private final AtomicLong highestWritten = new AtomicLong();
    private final AtomicLong nextSyncMillis = new AtomicLong(Long.MIN_VALUE);
    private volatile long syncedEpoch = -1;
    private volatile long knownWatermark;
    private volatile int step;
    private volatile long listsPausedUntilMillis = Long.MIN_VALUE;

    ShardListState(int appId, int shardId) {
        this.appId = appId;
        this.shardId = shardId;
        this.listKey = ShardListKeys.list(appId, shardId);
        this.lockKey = ShardListKeys.lock(appId, shardId);
    }

    /**
     * The index every index popped from now on must exceed. Read BEFORE the pop: what it holds was
     * popped (by us, or by another instance that wrote the watermark) before our pop began, and the
     * list hands indexes out in increasing order, so a pop that returns less was rolled back.
     */
    long floor() {
        return Math.max(highestPopped.get(), knownWatermark);
    }

    void popped(long index) {
        highestPopped.accumulateAndGet(index, Math::max);
    }

    long highestPopped() {
        return highestPopped.get();
    }

    /** True if {@code popped} was not written yet and the caller should write it; marks it written. */
    boolean claimWrite(long popped) {
        long written = highestWritten.get();
        return popped > written && highestWritten.compareAndSet(written, popped);
    }

    void learnWatermark(long watermark) {
        if (watermark > knownWatermark) {
            knownWatermark = watermark;
        }
    }

    /** True for the one caller that should sync now: the interval passed, or Redis came back since the last sync. */
    boolean claimSync(long now, long intervalMillis, long epoch) {
        long due = nextSyncMillis.get();
        boolean stale = syncedEpoch != epoch || now >= due;
        if (stale && nextSyncMillis.compareAndSet(due, now + intervalMillis)) {
            syncedEpoch = epoch;
            return true;
        }
        return false;
    }

    int step() {
        return step;
    }

    void learnStep(int rowStep) {
        step = rowStep;
    }

    /** LLEN <= 0.2 x step, their refill rule; before the step is known, only an empty list is low. */
    boolean isLow(long length) {
        return length * 5 <= step;
    }

    boolean listsPaused(long now) {
        return now < listsPausedUntilMillis;
    }

    void pauseLists(long untilMillis) {
        listsPausedUntilMillis = untilMillis;
    }
}
