package org.leafid.server.config;

import com.alibaba.druid.pool.DruidDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.InstantSource;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentSettings;
import org.leafid.core.segment.SegmentStore;
import org.leafid.core.segment.StepPolicy;
import org.leafid.server.database.JdbcUrls;
import org.leafid.server.metrics.SegmentMeters;
import org.leafid.server.segment.DatabaseOutageLog;
import org.leafid.server.segment.MybatisSegmentStore;
import org.leafid.server.segment.SegmentHealthIndicator;
import org.leafid.server.segment.SegmentLoadOutcomes;
import org.leafid.server.segment.SegmentTagRefresher;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Segment mode: the store, one generator per tag, and the periodic tag refresh. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnLeafSwitch("leaf.segment.enable")
class SegmentConfiguration {

    @Bean
    SegmentStore segmentStore(DataSource leafDataSource) {
        return new MybatisSegmentStore(leafDataSource);
    }

    /** Block loads: at most one per tag at a time, so a small bounded pool is enough. */
    @Bean(destroyMethod = "shutdownNow")
    ThreadPoolExecutor segmentLoader() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(10_000), new DaemonThreads("leaf-segment-loader"));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    @Bean
    SegmentMeters segmentMeters(MeterRegistry registry) {
        return new SegmentMeters(registry);
    }

    /** One line per cause per refresh interval while the database fails, one when it answers again. */
    @Bean
    DatabaseOutageLog segmentOutageLog(SegmentProperties properties) {
        return new DatabaseOutageLog(LoggerFactory.getLogger(SegmentTagRefresher.class), properties.refreshInterval(),
                System::nanoTime);
    }

    @Bean
    SegmentLoadOutcomes segmentLoadOutcomes(SegmentMeters segmentMeters, DatabaseOutageLog segmentOutageLog,
            DataSource leafDataSource, InstantSource leafClock) {
        return new SegmentLoadOutcomes(segmentMeters, segmentOutageLog, databaseName(leafDataSource), leafClock);
    }

    @Bean
    SegmentAllocator segmentAllocator(SegmentStore segmentStore, SegmentProperties properties,
            InstantSource leafClock, ThreadPoolExecutor segmentLoader, SegmentMeters segmentMeters,
            SegmentLoadOutcomes segmentLoadOutcomes) {
        SegmentSettings settings = new SegmentSettings(new StepPolicy(properties.maxStep(), StepPolicy.DEFAULT_TARGET),
                properties.loadWait(), segmentLoadOutcomes);
        return new SegmentAllocator(segmentStore, settings, leafClock, segmentLoader, segmentMeters);
    }

    @Bean
    SegmentHealthIndicator segmentHealthIndicator(SegmentAllocator segmentAllocator) {
        return new SegmentHealthIndicator(segmentAllocator);
    }

    @Bean
    SegmentTagRefresher segmentTagRefresher(SegmentAllocator segmentAllocator, SegmentProperties properties,
            DatabaseOutageLog segmentOutageLog, DataSource leafDataSource) {
        return new SegmentTagRefresher(segmentAllocator, properties.refreshInterval(), segmentOutageLog,
                databaseName(leafDataSource));
    }

    private static String databaseName(DataSource dataSource) {
        String url = dataSource instanceof DruidDataSource pool ? pool.getUrl() : "leaf.jdbc.url";
        return "The database of leaf_alloc (" + JdbcUrls.withoutPassword(url) + ")";
    }
}
