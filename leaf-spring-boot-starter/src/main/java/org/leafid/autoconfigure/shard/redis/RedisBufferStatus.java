package org.leafid.autoconfigure.shard.redis;

import org.leafid.autoconfigure.shard.ShardBufferStatus;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardAppDirectory;
import org.leafid.redis.RedisShardIndexSource;

/** The Redis buffer's status: the lists, or the memory fallback while Redis does not answer. */
final class RedisBufferStatus implements ShardBufferStatus {

    private final RedisShardIndexSource source;
    private final ShardAppDirectory apps;

    RedisBufferStatus(RedisShardIndexSource source, ShardAppDirectory apps) {
        this.source = source;
        this.apps = apps;
    }

    @Override
    public String source() {
        return source.servingFromMemory() ? "memory (Redis down)" : "redis";
    }

    /** One LLEN per shard: read at scrape or page time, never on the ID path. */
    @Override
    public long queueLength(int appId) {
        ShardApp app = apps.app(appId);
        if (app == null || source.servingFromMemory()) {
            return -1;
        }
        long total = 0;
        for (int shard : app.shards()) {
            long length = source.listLength(appId, shard);
            if (length < 0) {
                return -1;
            }
            total += length;
        }
        return total;
    }
}
