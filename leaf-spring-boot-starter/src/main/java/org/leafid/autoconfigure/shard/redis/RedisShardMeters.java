package org.leafid.autoconfigure.shard.redis;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.leafid.autoconfigure.shard.ShardAppsListener;
import org.leafid.autoconfigure.shard.ShardBufferStatus;
import org.leafid.core.shard.ShardApp;
import org.leafid.redis.RedisShardIndexSource;

/**
 * The Redis buffer's meters: {@code leaf_shard_queue_length{app}}, the indexes waiting in the
 * app's lists (all shards; -1 while Redis does not answer), and {@code leaf_shard_buffer{source}}:
 * 1 for the source indexes come from now ({@code redis}, or {@code memory} while Redis is down),
 * 0 for the other. Queue gauges follow the app list.
 */
final class RedisShardMeters implements ShardAppsListener {

    private final MeterRegistry registry;
    private final ShardBufferStatus status;
    private final Set<Integer> registered = ConcurrentHashMap.newKeySet();

    RedisShardMeters(MeterRegistry registry, ShardBufferStatus status, RedisShardIndexSource source) {
        this.registry = registry;
        this.status = status;
        Gauge.builder("leaf.shard.buffer", source, s -> s.servingFromMemory() ? 0 : 1)
                .description("1 for the source shard-mode indexes come from now").tag("source", "redis")
                .register(registry);
        Gauge.builder("leaf.shard.buffer", source, s -> s.servingFromMemory() ? 1 : 0)
                .description("1 for the source shard-mode indexes come from now").tag("source", "memory")
                .register(registry);
    }

    @Override
    public void accept(List<ShardApp> apps) {
        Set<Integer> listed = new HashSet<>();
        for (ShardApp app : apps) {
            int appId = app.appId();
            listed.add(appId);
            if (registered.add(appId)) {
                Gauge.builder("leaf.shard.queue.length", status, s -> s.queueLength(appId))
                        .description("Indexes waiting in the app's Redis lists; -1 while Redis does not answer")
                        .tag("app", Integer.toString(appId)).register(registry);
            }
        }
        for (Integer gone : Set.copyOf(registered)) {
            if (!listed.contains(gone)) {
                registered.remove(gone);
                Meter meter = registry.find("leaf.shard.queue.length").tag("app", Integer.toString(gone)).meter();
                if (meter != null) {
                    registry.remove(meter);
                }
            }
        }
    }
}
