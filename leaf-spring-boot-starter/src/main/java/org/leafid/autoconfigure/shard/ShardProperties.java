package org.leafid.autoconfigure.shard;

import java.time.Duration;
import org.leafid.autoconfigure.segment.SegmentProperties;
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
 * @param loadWait how long a request waits for the next block when the current one is spent
 * @param opaqueKey a secret of at least 128 bits (hex or base64) that makes the index part of an
 *     ID unreadable; empty means plain indexes. Never change it for an app: see the README
 */
@ConfigurationProperties("leaf.shard")
public record ShardProperties(
        Boolean enable,
        @DefaultValue("memory") Buffer buffer,
        @DefaultValue("60s") Duration refreshInterval,
        @DefaultValue("1s") Duration loadWait,
        @DefaultValue("") String opaqueKey) {

    public ShardProperties {
        SegmentProperties.requirePositive("leaf.shard.refresh-interval", refreshInterval);
        SegmentProperties.requirePositive("leaf.shard.load-wait", loadWait);
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
                + ", opaque=" + opaque() + "]";
    }
}
