package org.leafid.autoconfigure.shard;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardIdGenerator;
import org.leafid.core.shard.ShardLimit;
import org.leafid.jdbc.shard.IdAllocRepository;
import org.leafid.jdbc.shard.IdAllocRow;

/**
 * Shard-mode meters per app, following the app list: {@code leaf_ids_issued_total{mode="shard",key=appId}}
 * (read from the generator at scrape time) and {@code leaf_shard_headroom{app}}, the fraction of
 * the app's index space not yet reserved, over all its shards (1 = untouched, 0 = spent), computed
 * from the rows at each app-list refresh. Alert well before 0: see LeafShardHeadroomLow in ops/prometheus/leaf-alerts.yml.
 *
 * <p>Opaque apps are counted together, under {@code key="opaque"}: their IDs are made to hide how
 * many an app issues, and a per-app count on an anonymous {@code /actuator/prometheus} would publish
 * just that.
 */
public final class ShardMeters implements Consumer<List<ShardApp>> {

    private final MeterRegistry registry;
    private final ShardIdGenerator generator;
    private final IdAllocRepository rows;
    private final Map<Integer, Double> headroom = new ConcurrentHashMap<>();
    private final Set<Integer> registered = ConcurrentHashMap.newKeySet();

    /** @param rows the rows headroom is computed from; null (an application's own store) registers no headroom */
    ShardMeters(MeterRegistry registry, ShardIdGenerator generator, IdAllocRepository rows) {
        this.registry = registry;
        this.generator = generator;
        this.rows = rows;
    }

    /** The headroom of an app as last computed, or 1 before the first computation. */
    public double headroom(int appId) {
        return headroom.getOrDefault(appId, 1.0);
    }

    @Override
    public void accept(List<ShardApp> apps) {
        Set<Integer> listed = new HashSet<>();
        for (ShardApp app : apps) {
            int appId = app.appId();
            listed.add(appId);
            headroom.put(appId, computeHeadroom(app));
            if (registered.add(appId)) {
                String key = Integer.toString(appId);
                if (generator.opaque()) {
                    registerOpaqueCounter();
                } else {
                    FunctionCounter.builder("leaf.ids.issued", generator, g -> g.issuedCount(appId))
                            .description("IDs handed out").tags("mode", "shard", "key", key).register(registry);
                }
                if (rows != null) {
                    Gauge.builder("leaf.shard.headroom", this, meters -> meters.headroom(appId))
                            .description("Fraction of the app's index space not yet reserved").tag("app", key)
                            .register(registry);
                }
            }
        }
        for (Integer gone : Set.copyOf(registered)) {
            if (!listed.contains(gone)) {
                remove(gone);
            }
        }
    }

    /**
     * One counter for every opaque app: the sum of what this server issued for the apps listed now.
     * Registering it again returns the one registered first.
     */
    private void registerOpaqueCounter() {
        FunctionCounter.builder("leaf.ids.issued", this, ShardMeters::issuedByOpaqueApps)
                .description("IDs handed out").tags("mode", "shard", "key", "opaque").register(registry);
    }

    private double issuedByOpaqueApps() {
        return registered.stream().mapToLong(generator::issuedCount).sum();
    }

    private double computeHeadroom(ShardApp app) {
        if (rows == null) {
            return 1.0;
        }
        ShardLimit limit = ShardLimit.of(app);
        Map<Integer, Long> next = new HashMap<>();
        for (IdAllocRow row : rows.rows(app.appId())) {
            next.put(row.shardId(), row.maxId() + 1);
        }
        return limit.headroom(next);
    }

    private void remove(int appId) {
        registered.remove(appId);
        headroom.remove(appId);
        String key = Integer.toString(appId);
        for (Meter meter : registry.getMeters()) {
            Meter.Id id = meter.getId();
            boolean ofApp = key.equals(id.getTag("app")) && id.getName().startsWith("leaf.shard.")
                    || "shard".equals(id.getTag("mode")) && key.equals(id.getTag("key"));
            if (ofApp) {
                registry.remove(meter);
            }
        }
    }
}
