package org.leafid.redis;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.leafid.core.shard.ShardBlock;
import org.leafid.core.shard.ShardIndexSource;
import org.leafid.core.shard.ShardStore;

/**
 * The memory fallback of the tests: one block at a time per (app, shard) from the store, as the
 * server's memory buffer does (without its preloading). Counts what it served. Thread-safe.
 */
final class StoreBlockFallback implements ShardIndexSource {

    private final ShardStore store;
    private final Map<String, long[]> blocks = new HashMap<>(); // {next, last}
    private final AtomicLong served = new AtomicLong();

    StoreBlockFallback(ShardStore store) {
        this.store = store;
    }

    @Override
    public synchronized long nextIndex(int appId, int shardId) {
        long[] block = blocks.get(appId + "/" + shardId);
        if (block == null || block[0] > block[1]) {
            ShardBlock reserved = store.reserve(appId, shardId, 1);
            block = new long[] {reserved.firstIndex(), reserved.lastIndex()};
            blocks.put(appId + "/" + shardId, block);
        }
        served.incrementAndGet();
        return block[0]++;
    }

    @Override
    public long[] nextIndexes(int appId, int shardId, int count) {
        long[] indexes = new long[count];
        for (int i = 0; i < count; i++) {
            indexes[i] = nextIndex(appId, shardId);
        }
        return indexes;
    }

    long served() {
        return served.get();
    }
}
