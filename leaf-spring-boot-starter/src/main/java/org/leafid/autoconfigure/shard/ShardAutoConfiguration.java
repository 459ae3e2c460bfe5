package org.leafid.autoconfigure.shard;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.autoconfigure.ClockAutoConfiguration;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.jdbc.HighWaterMeter;
import org.leafid.autoconfigure.jdbc.JdbcProperties;
import org.leafid.autoconfigure.jdbc.LeafJdbcAutoConfiguration;
import org.leafid.autoconfigure.jdbc.StoreWentBackMeter;
import org.leafid.autoconfigure.mode.ConditionalOnShardMode;
import org.leafid.autoconfigure.mode.FleetWitnessChoice;
import org.leafid.autoconfigure.segment.SegmentAutoConfiguration;
import org.leafid.core.DaemonThreads;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.FleetReservationWitness;
import org.leafid.core.segment.ReservationWitness;
import org.leafid.core.shard.MemoryShardIndexSource;
import org.leafid.core.shard.OpaquePermutation;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardAppDirectory;
import org.leafid.core.shard.ShardIdGenerator;
import org.leafid.core.shard.ShardIndexSource;
import org.leafid.core.shard.ShardStore;
import org.leafid.core.witness.DataDirWitness;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.shard.IdAllocRepository;
import org.leafid.jdbc.shard.ShardKeyFingerprints;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Shard mode ({@code leaf.shard.enable}; unset, on exactly when {@code leaf.jdbc.url} is unset):
 * the {@code id_alloc} store, a double buffer per (app, shard), the directory of apps, the opaque
 * permutation when {@code leaf.shard.opaque-key} is set, the generator, its meters and the
 * periodic re-read of the app list. Each bean gives way to one the application defines.
 */
// Before segment mode's, whose SegmentStore would otherwise look like the application's own to the
// switch; after Boot's DataSource, which counts as the application's.
@AutoConfiguration(after = {ClockAutoConfiguration.class, LeafJdbcAutoConfiguration.class}, before = SegmentAutoConfiguration.class,
        afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass(name = LeafJdbcAutoConfiguration.MODULE_CLASS)
@ConditionalOnShardMode
public class ShardAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(ShardStore.class)
    IdAllocRepository shardStore(SqlSessionFactory leafSqlSessions, StoreIdentityGuard storeIdentityGuard) {
        return new IdAllocRepository(leafSqlSessions, Sleeper.system(), storeIdentityGuard);
    }

    /** Block loads of shard mode: one per (app, shard) at a time, so a small bounded pool is enough. */
    @Bean(destroyMethod = "shutdownNow")
    @ConditionalOnMissingBean(name = "shardLoader")
    ThreadPoolExecutor shardLoader() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(10_000), new DaemonThreads("leaf-shard-loader"));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * What this server reserved of {@code id_alloc}, in its data directory ({@code {data-dir}/{leaf.name}/witness/}),
     * where a restore of the database cannot reach it, as segment mode's witness is for {@code leaf_alloc}.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(name = "shardWitness")
    DataDirWitness shardWitness(LeafProperties leaf, Environment environment) {
        return DataDirWitness.open(leaf.dataDir().resolve(leaf.name()).resolve("witness"), "id_alloc",
                FleetWitnessChoice.of(environment).fleetWide());
    }

    /**
     * Where every block of {@code id_alloc} is recorded before it is served: this server's data directory,
     * and the fleet's witness (ZooKeeper, Redis) when there is one. The memory buffer and the Redis
     * buffer's refills share it.
     */
    @Bean
    @ConditionalOnMissingBean(name = "shardBlockWitness")
    ReservationWitness shardBlockWitness(@Qualifier("shardWitness") DataDirWitness shardWitness,
            @Qualifier(FleetWitnessChoice.BEAN) ObjectProvider<FleetReservationWitness> fleetWitness) {
        FleetReservationWitness fleet = fleetWitness.getIfAvailable();
        return fleet == null ? shardWitness : ReservationWitness.both(shardWitness, fleet.forTable("id_alloc"));
    }

    @Bean
    @ConditionalOnMissingBean
    MemoryShardIndexSource memoryShardIndexSource(ShardStore shardStore, InstantSource leafClock,
            ThreadPoolExecutor shardLoader, ShardProperties properties, JdbcProperties jdbc,
            ObjectProvider<MeterRegistry> registry,
            @Qualifier("shardBlockWitness") ReservationWitness shardBlockWitness) {
        return new MemoryShardIndexSource(shardStore, leafClock, shardLoader, properties.loadWait(),
                new StoreWentBackMeter(registry.getIfAvailable(SimpleMeterRegistry::new), "id_alloc"),
                jdbc.wentBackSkipBlocks(), shardBlockWitness);
    }

    @Bean
    @ConditionalOnMissingBean
    ShardAppDirectory shardApps(ShardStore shardStore) {
        return new ShardAppDirectory(shardStore);
    }

    /** Made once: deriving the round keys is the costly part. */
    @Bean
    @ConditionalOnMissingBean
    ShardOpacity shardOpacity(ShardProperties properties) {
        if (!properties.opaque()) {
            return new ShardOpacity(null);
        }
        try {
            return new ShardOpacity(OpaquePermutation.fromKeyText(properties.opaqueKey()));
        } catch (IllegalArgumentException e) {
            throw new LeafConfigurationException("leaf.shard.opaque-key", "is not usable: " + e.getMessage(),
                    "Make one with: openssl rand -hex 32, and keep it for as long as the apps exist.");
        }
    }

    @Bean
    @ConditionalOnMissingBean
    ShardIdGenerator shardIdGenerator(ShardAppDirectory shardApps, ObjectProvider<ShardIndexSource> sources,
            MemoryShardIndexSource memoryShardIndexSource, ShardOpacity shardOpacity, ShardProperties properties,
            ObjectProvider<ShardAppRefresher> refresher) {
        // An application's (or the Redis buffer's) own source wins over the memory buffer.
        ShardIndexSource source = sources.stream().filter(s -> s != memoryShardIndexSource).findFirst()
                .orElse(memoryShardIndexSource);
        if (source == memoryShardIndexSource && properties.buffer() == ShardProperties.Buffer.REDIS) {
            throw new LeafConfigurationException("leaf.shard.buffer", "is redis, but the Redis buffer is not on the "
                    + "classpath.", "Add org.leafid:leaf-redis and spring-boot-starter-data-redis, or set "
                    + "leaf.shard.buffer=memory.");
        }
        return new ShardIdGenerator(new ShardAppLookup(shardApps, refresher), source, shardOpacity.permutation());
    }

    @Bean
    @ConditionalOnMissingBean
    ShardMeters shardMeters(ObjectProvider<MeterRegistry> registry, ShardIdGenerator shardIdGenerator,
            ShardStore shardStore) {
        // Headroom needs the rows of id_alloc; an application's own store gets the issued counts only.
        IdAllocRepository rows = shardStore instanceof IdAllocRepository table ? table : null;
        MeterRegistry meters = registry.getIfAvailable(SimpleMeterRegistry::new);
        if (rows != null) {
            HighWaterMeter.register(meters, rows.marks());
            HighWaterMeter.registerRetries(meters, rows.retries());
        }
        return new ShardMeters(meters, shardIdGenerator, rows);
    }

    /** The memory buffer's; the Redis buffer's configuration makes its own. */
    @Bean
    @ConditionalOnMissingBean
    ShardBufferStatus shardBufferStatus() {
        return ShardBufferStatus.memory();
    }

    @Bean
    @ConditionalOnMissingBean
    ShardAppRefresher shardAppRefresher(MemoryShardIndexSource memoryShardIndexSource, ShardAppDirectory shardApps,
            ShardStore shardStore,
            ShardProperties properties, ShardOpacity shardOpacity, ObjectProvider<SqlSessionFactory> sessions,
            ObjectProvider<ShardMeters> meters, ObjectProvider<ShardAppsListener> appsListeners) {
        List<Consumer<List<ShardApp>>> listeners = new ArrayList<>();
        meters.ifAvailable(listeners::add);
        appsListeners.orderedStream().forEach(listeners::add);
        // With or without a key: each app's mode is recorded once, and a server of another mode does not serve it.
        ShardAppModes modes = shardStore instanceof IdAllocRepository table
                ? new ShardAppModes(new ShardKeyFingerprints(sessions.getObject()), shardOpacity.permutation(), table)
                : null;
        return new ShardAppRefresher(memoryShardIndexSource, shardApps, properties.refreshInterval(), listeners,
                modes);
    }

    /** {@code shardBuffer}: where indexes come from; never DOWN, since the memory buffer stands in for Redis. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = "shardBufferHealthIndicator")
        ShardBufferHealthIndicator shardBufferHealthIndicator(ShardBufferStatus shardBufferStatus) {
            return new ShardBufferHealthIndicator(shardBufferStatus);
        }

        @Bean
        @ConditionalOnMissingBean(name = "shardAppsHealthIndicator")
        ShardAppsHealthIndicator shardAppsHealthIndicator(ShardAppDirectory shardApps,
                ShardAppRefresher shardAppRefresher) {
            return new ShardAppsHealthIndicator(shardApps, shardAppRefresher);
        }
    }
}
