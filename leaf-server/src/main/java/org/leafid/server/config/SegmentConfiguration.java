package org.leafid.server.config;

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
import org.leafid.server.metrics.SegmentMeters;
import org.leafid.server.segment.MybatisSegmentStore;
import org.leafid.server.segment.SegmentHealthIndicator;
import org.leafid.server.segment.SegmentTagRefresher;
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

    @Bean
    SegmentAllocator segmentAllocator(SegmentStore segmentStore, SegmentProperties properties,
            InstantSource leafClock, ThreadPoolExecutor segmentLoader, SegmentMeters segmentMeters) {
        SegmentSettings settings = new SegmentSettings(
                new StepPolicy(properties.maxStep(), StepPolicy.DEFAULT_TARGET), properties.loadWait(), segmentMeters);
        return new SegmentAllocator(segmentStore, settings, leafClock, segmentLoader, segmentMeters);
    }

    @Bean
    SegmentHealthIndicator segmentHealthIndicator(SegmentAllocator segmentAllocator) {
        return new SegmentHealthIndicator(segmentAllocator);
    }

    @Bean
    SegmentTagRefresher segmentTagRefresher(SegmentAllocator segmentAllocator, SegmentProperties properties) {
        return new SegmentTagRefresher(segmentAllocator, properties.refreshInterval());
    }
}
