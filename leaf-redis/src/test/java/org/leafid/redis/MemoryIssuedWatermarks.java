package org.leafid.redis;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.leafid.core.shard.IssuedWatermarks;

/** Watermarks in memory, shared by the instances of a test; thread-safe. */
final class MemoryIssuedWatermarks implements IssuedWatermarks {

    private final ConcurrentMap<String, Long> highest = new ConcurrentHashMap<>();

    @Override
    public long highest(int appId, int shardId) {
        return highest.getOrDefault(appId + "/" + shardId, 0L);
    }

    @Override
    public void advance(int appId, int shardId, long issued) {
        highest.merge(appId + "/" + shardId, issued, Math::max);
    }
}
