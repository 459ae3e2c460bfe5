package org.leafid.core.shard;

import java.util.Map;

/**
 * What an app's {@code max_limit_id} leaves each shard: every ID must be below it, so a shard
 * may issue the indexes 1 .. {@link #maxIndex(int)} and no more (never wrapped).
 *
 * @param maxLimitId every ID of the app is below this; 0 means no limit (indexes up to 2^49 - 1)
 */
public record ShardLimit(int appId, long maxLimitId) {

    public ShardLimit {
        if (appId < 0 || appId > ShardId.MAX_APP_ID) {
            throw new IllegalArgumentException("app id must be 0.." + ShardId.MAX_APP_ID + ": " + appId);
        }
        if (maxLimitId < 0) {
            throw new IllegalArgumentException("max_limit_id of app " + appId + " is negative (" + maxLimitId
                    + "); use 0 for no limit");
        }
    }

    public static ShardLimit of(ShardApp app) {
        return new ShardLimit(app.appId(), app.maxLimitId());
    }

    public boolean limited() {
        return maxLimitId > 0;
    }

    /**
     * The largest index of the shard whose ID is below {@code max_limit_id}; 0 when not even
     * index 1 fits. Exact: {@code index << 14 | low < limit} is {@code index < (limit - low) / 2^14}
     * since the low 14 bits are below 2^14, and no step can overflow.
     */
    public long maxIndex(int shardId) {
        if (shardId < 0 || shardId >= ShardId.SHARDS) {
            throw new IllegalArgumentException("shard id must be 0.." + (ShardId.SHARDS - 1) + ": " + shardId);
        }
        if (maxLimitId == 0) {
            return ShardId.MAX_INDEX;
        }
        long low = (long) shardId << ShardId.SHARD_SHIFT | appId;
        if (maxLimitId <= low) {
            return 0;
        }
        // maxLimitId - 1 - low >= 0 and below 2^63: the shift is of a non-negative number.
        return Math.min(ShardId.MAX_INDEX, (maxLimitId - 1 - low) >>> ShardId.INDEX_SHIFT);
    }

    /**
     * The fraction of the index space still free, over the shards given: for each, the indexes
     * from its next one to its {@link #maxIndex}, divided by all its indexes. 1.0 for an app
     * without shards given; without a limit it is the same sum over 2^49 - 1 per shard.
     *
     * @param nextIndexByShard per shard id, the next index it would issue (1 when it issued none)
     */
    public double headroom(Map<Integer, Long> nextIndexByShard) {
        double capacity = 0;
        double free = 0;
        for (Map.Entry<Integer, Long> entry : nextIndexByShard.entrySet()) {
            long max = maxIndex(entry.getKey());
            long next = Math.max(1, entry.getValue());
            capacity += max;
            free += next > max ? 0 : max - next + 1;
        }
        return capacity == 0 ? (nextIndexByShard.isEmpty() ? 1.0 : 0.0) : free / capacity;
    }
}
