package org.leafid.autoconfigure.shard;

import java.time.Duration;
import org.leafid.autoconfigure.LeafValues;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.shard.*}: shard mode, per-app IDs {@code index << 14 | shardId << 8 | appId} from
 * the {@code id_alloc} table.
 *
 * @param enable shard mode on or off; unset, on with the embedded database (which has a sample
 *     app) and off when {@code leaf.jdbc.url} is set (a Leaf database has no {@code id_alloc})
 * @param buffer where indexes wait to be issued: {@code memory} (a double buffer per app and
 *     shard) or {@code redis} (the Redis lists of the Redis-queue ID services)
 * @param refreshInterval how often the app list is re-read from {@code id_alloc}
 * @param loadWait how long a request waits for the next block when the current one is spent,
 *     before a 503
 * @param opaqueKey a secret of at least 128 bits (hex or base64) that makes the index part of an
 *     ID unreadable; empty means plain indexes. Never change it for an app: see docs/shard-mode.md
 * @param redis the timings of the Redis buffer ({@code buffer=redis})
 */
@ConfigurationProperties("leaf.shard")
public record ShardProperties(
        Boolean enable,
        @DefaultValue("memory") Buffer buffer,
        @DefaultValue("60s") Duration refreshInterval,
        @DefaultValue("1s") Duration loadWait,
        @DefaultValue("") String opaqueKey,
        @DefaultValue Redis redis) {

    public ShardProperties {
        LeafValues.requirePositive("leaf.shard.refresh-interval", refreshInterval);
        LeafValues.requirePositive("leaf.shard.load-wait", loadWait);
    }

    /**
     * {@code leaf.shard.redis.*}: the Redis buffer's timings. Redis itself (host, port, password,
     * command timeout) is Spring Boot's {@code spring.data.redis.*}.
     *
     * @param lockTtl expiry of the refill lock {@code id.gen.lock_{app}_{shard}} (their service's 60 s)
     * @param lockWait how long a request that found its list empty waits for another instance's
     *     refill before it is served from memory
     * @param retryInterval how often Redis is tried again while it does not answer
     * @param watermarkInterval how often each (app, shard) exchanges its highest issued index with
     *     the database, for the lagging-replica guard
     */
    public record Redis(
            @DefaultValue("60s") Duration lockTtl,
            @DefaultValue("1s") Duration lockWait,
            @DefaultValue("5s") Duration retryInterval,
            @DefaultValue("1s") Duration watermarkInterval) {

        public Redis {
            LeafValues.requirePositive("leaf.shard.redis.lock-ttl", lockTtl);
            LeafValues.requirePositive("leaf.shard.redis.lock-wait", lockWait);
            LeafValues.requirePositive("leaf.shard.redis.retry-interval", retryInterval);
            LeafValues.requirePositive("leaf.shard.redis.watermark-interval", watermarkInterval);
        }
    }

    public boolean opaque() {
        return opaqueKey != null && !opaqueKey.isBlank();
    }

    /** Where indexes wait to be issued. */
    public enum Buffer {
        MEMORY, REDIS
    }

    @Override
    public String toString() {
        // never print the key
        return "ShardProperties[enable=" + enable + ", buffer=" + buffer + ", refreshInterval=" + refreshInterval
                + ", opaque=" + opaque() + ", redis=" + redis + "]";
    }
}
