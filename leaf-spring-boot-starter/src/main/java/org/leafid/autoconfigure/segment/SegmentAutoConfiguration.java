package org.leafid.autoconfigure.segment;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.InstantSource;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.autoconfigure.ClockAutoConfiguration;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.jdbc.HighWaterMeter;
import org.leafid.autoconfigure.jdbc.JdbcProperties;
import org.leafid.autoconfigure.jdbc.LeafJdbcAutoConfiguration;
import org.leafid.autoconfigure.jdbc.SeveralStores;
import org.leafid.autoconfigure.jdbc.SeveralStoresConfigured;
import org.leafid.core.DaemonThreads;
import org.leafid.core.Sleeper;
import org.leafid.core.format.FormatDefinitionRegistry;
import org.leafid.autoconfigure.mode.FleetWitnessChoice;
import org.leafid.core.segment.FleetReservationWitness;
import org.leafid.core.segment.MultiStoreSegmentStore;
import org.leafid.core.segment.ReservationWitness;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentSettings;
import org.leafid.core.segment.SegmentStore;
import org.leafid.core.segment.StepPolicy;
import org.leafid.core.witness.DataDirWitness;
import org.leafid.jdbc.DatabaseOutageLog;
import org.leafid.jdbc.JdbcUrls;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.format.FormatDefinitions;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.leafid.jdbc.segment.LeafAllocTable;
import org.leafid.jdbc.stores.SeveralLeafAllocTables;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Segment mode ({@code leaf.segment.enable}, on by default): the {@code leaf_alloc} store, the
 * allocator with one generator per tag, its meters, health and the periodic tag refresh. Each
 * bean gives way to one of the same type the application defines.
 */
@AutoConfiguration(after = {ClockAutoConfiguration.class, LeafJdbcAutoConfiguration.class})
@ConditionalOnClass(name = LeafJdbcAutoConfiguration.MODULE_CLASS)
@ConditionalOnLeafSwitch("leaf.segment.enable")
public class SegmentAutoConfiguration {

    /**
     * Also the admin API's access to the table (the server injects it by this type), and what makes
     * the rows of the formats' periods ({@code SegmentTagCreator}).
     */
    @Bean
    @ConditionalOnMissingBean(SegmentStore.class)
    @Conditional(OneStore.class)
    LeafAllocRepository segmentStore(SqlSessionFactory leafSqlSessions, StoreIdentityGuard storeIdentityGuard) {
        return new LeafAllocRepository(leafSqlSessions, Sleeper.system(), storeIdentityGuard);
    }

    /** {@code leaf.jdbc.stores}: blocks from whichever of several databases answers. */
    @Bean
    @ConditionalOnMissingBean(SegmentStore.class)
    @Conditional(SeveralStoresConfigured.class)
    MultiStoreSegmentStore severalStoresSegmentStore(SeveralStores severalStores) {
        return severalStores.segmentStore();
    }

    /** With several stores, the tags view, the admin API and the formats write every store's leaf_alloc. */
    @Bean
    @ConditionalOnMissingBean(LeafAllocTable.class)
    @Conditional(SeveralStoresConfigured.class)
    SeveralLeafAllocTables severalStoresTables(SeveralStores severalStores) {
        return severalStores.tables();
    }

    /** Not {@code leaf.jdbc.stores}: the one database of {@code leaf.jdbc.url} (or the embedded one). */
    static class OneStore extends NoneNestedConditions {

        OneStore() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @Conditional(SeveralStoresConfigured.class)
        static class Several {}
    }

    /**
     * The one definition of each format's tag ({@code leaf_format}), which segment-sourced formats check;
     * only beside Leaf's own table (declared after it), so that an application's own store opens no pool.
     */
    @Bean
    @ConditionalOnBean(LeafAllocTable.class)
    @ConditionalOnMissingBean(FormatDefinitionRegistry.class)
    FormatDefinitions formatDefinitions(SqlSessionFactory leafSqlSessions) {
        return new FormatDefinitions(leafSqlSessions);
    }

    /** Block loads: at most one per tag at a time, so a small bounded pool is enough. */
    @Bean(destroyMethod = "shutdownNow")
    @ConditionalOnMissingBean(name = "segmentLoader")
    ThreadPoolExecutor segmentLoader() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(10_000), new DaemonThreads("leaf-segment-loader"));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** On the application's registry; without one (no Micrometer setup) the meters are kept but not published. */
    @Bean
    @ConditionalOnMissingBean
    SegmentMeters segmentMeters(ObjectProvider<MeterRegistry> registry, SegmentStore segmentStore) {
        MeterRegistry meters = registry.getIfAvailable(SimpleMeterRegistry::new);
        if (segmentStore instanceof LeafAllocRepository table) {
            HighWaterMeter.register(meters, table.marks());
            HighWaterMeter.registerRetries(meters, table.retries());
        }
        if (segmentStore instanceof MultiStoreSegmentStore stores) {
            StoreMeters.register(meters, stores);
        }
        return new SegmentMeters(meters);
    }

    /** One line per cause per refresh interval while the database fails, one when it answers again. */
    @Bean
    @ConditionalOnMissingBean(name = "segmentOutageLog")
    DatabaseOutageLog segmentOutageLog(SegmentProperties properties) {
        return new DatabaseOutageLog(LoggerFactory.getLogger(SegmentTagRefresher.class), properties.refreshInterval(),
                System::nanoTime);
    }

    @Bean
    @ConditionalOnMissingBean
    SegmentLoadOutcomes segmentLoadOutcomes(SegmentMeters segmentMeters, DatabaseOutageLog segmentOutageLog,
            SegmentStore segmentStore, InstantSource leafClock) {
        return new SegmentLoadOutcomes(segmentMeters, segmentOutageLog, storeName(segmentStore), leafClock);
    }

    /**
     * What this server reserved, in its data directory ({@code {data-dir}/{leaf.name}/witness/}), where
     * a restore of the database cannot reach it: read at start, written before each block is served.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(name = "segmentWitness")
    DataDirWitness segmentWitness(LeafProperties leaf, Environment environment) {
        return DataDirWitness.open(leaf.dataDir().resolve(leaf.name()).resolve("witness"), "leaf_alloc",
                FleetWitnessChoice.of(environment).fleetWide());
    }

    @Bean
    @ConditionalOnMissingBean
    SegmentAllocator segmentAllocator(SegmentStore segmentStore, SegmentProperties properties,
            InstantSource leafClock, ThreadPoolExecutor segmentLoader, SegmentMeters segmentMeters,
            SegmentLoadOutcomes segmentLoadOutcomes, JdbcProperties jdbc,
            @Qualifier("segmentWitness") DataDirWitness segmentWitness,
            @Qualifier(FleetWitnessChoice.BEAN) ObjectProvider<FleetReservationWitness> fleetWitness) {
        FleetReservationWitness fleet = fleetWitness.getIfAvailable();
        SegmentSettings settings = new SegmentSettings(new StepPolicy(properties.maxStep(), StepPolicy.DEFAULT_TARGET),
                properties.loadWait(), segmentLoadOutcomes, jdbc.wentBackSkipBlocks(),
                fleet == null ? segmentWitness : ReservationWitness.both(segmentWitness, fleet));
        return new SegmentAllocator(segmentStore, settings, leafClock, segmentLoader, segmentMeters);
    }

    @Bean
    @ConditionalOnMissingBean
    SegmentTagRefresher segmentTagRefresher(SegmentAllocator segmentAllocator, SegmentProperties properties,
            DatabaseOutageLog segmentOutageLog, SegmentStore segmentStore) {
        return new SegmentTagRefresher(segmentAllocator, properties.refreshInterval(), segmentOutageLog,
                storeName(segmentStore));
    }

    /** Readiness {@code segment}: DOWN until the tags are loaded; with Spring Boot's health support only. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = "segmentHealthIndicator")
        SegmentHealthIndicator segmentHealthIndicator(SegmentAllocator segmentAllocator) {
            return new SegmentHealthIndicator(segmentAllocator);
        }

        /**
         * {@code segmentStores}: UP while one store of {@code leaf.jdbc.stores} answers. Conditioned
         * on the configuration, not on the bean: this nested class is read before the outer class
         * defines {@link MultiStoreSegmentStore}, so an on-bean condition would never match.
         */
        @Bean
        @ConditionalOnMissingBean(name = "segmentStoresHealthIndicator")
        @Conditional(SeveralStoresConfigured.class)
        SegmentStoresHealthIndicator segmentStoresHealthIndicator(MultiStoreSegmentStore stores) {
            return new SegmentStoresHealthIndicator(stores);
        }
    }

    /** What the outage lines call the store; an application's own store by its class. */
    private static String storeName(SegmentStore store) {
        if (store instanceof MultiStoreSegmentStore) {
            return "No store of leaf.jdbc.stores";
        }
        return store instanceof LeafAllocRepository table
                ? "The database of leaf_alloc (" + JdbcUrls.withoutPassword(table.url()) + ")"
                : "The segment store (" + store.getClass().getName() + ")";
    }
}
