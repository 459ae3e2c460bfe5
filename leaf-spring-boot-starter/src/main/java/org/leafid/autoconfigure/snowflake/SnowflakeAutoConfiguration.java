package org.leafid.autoconfigure.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.ThreadLocalRandom;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.leafid.autoconfigure.ClockAutoConfiguration;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.mode.WorkerIdModeChoice;
import org.leafid.autoconfigure.mode.WorkerIdModeCondition;
import org.leafid.autoconfigure.snowflake.local.LocalWorkerIdAutoConfiguration;
import org.leafid.autoconfigure.snowflake.mysql.MysqlWorkerIdAutoConfiguration;
import org.leafid.autoconfigure.snowflake.zookeeper.ZookeeperWorkerIdAutoConfiguration;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.Borrowing;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservingWorkerIdHolder;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Snowflake mode ({@code leaf.snowflake.enable}, on by default): this instance's address, the
 * worker-id holder over the registry of the chosen mode, the generator, its meters and health.
 * The registry comes from the auto-configuration of the mode
 * ({@link LocalWorkerIdAutoConfiguration}, {@link MysqlWorkerIdAutoConfiguration},
 * {@link ZookeeperWorkerIdAutoConfiguration}), or from the application: a {@link WorkerIdRegistry}
 * bean of its own replaces them all.
 */
@AutoConfiguration(after = ClockAutoConfiguration.class)
@ConditionalOnLeafSwitch("leaf.snowflake.enable")
public class SnowflakeAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SnowflakeAutoConfiguration.class);
    /** A layout ending sooner than this is refused at start. */
    static final Duration LAYOUT_REFUSED_WITHIN = Duration.ofDays(365);
    /** A layout ending sooner than this is warned about at start. */
    static final Duration LAYOUT_WARNED_WITHIN = Duration.ofDays(5 * 365);

    /** The worker-id mode in effect and why, as the mode conditions read it. */
    @Bean
    @ConditionalOnMissingBean
    WorkerIdModeChoice workerIdModeChoice(Environment environment) {
        return WorkerIdModeCondition.choice(environment);
    }

    @Bean
    @ConditionalOnMissingBean
    InstanceAddress instanceAddress(SnowflakeProperties properties, Environment environment) {
        int port = properties.port() != null
                ? properties.port()
                : environment.getProperty("server.port", Integer.class, 8080);
        if (port <= 0) {
            throw new LeafConfigurationException("leaf.snowflake.port",
                    "is unset and server.port is " + port + ", but the port names this instance's worker id.",
                    "Set leaf.snowflake.port to the port this instance is known by (the same on every restart).");
        }
        String ip = properties.ip() == null || properties.ip().isBlank() ? InstanceAddress.detectIp() : properties.ip();
        return new InstanceAddress(ip, port);
    }

    @Bean
    @ConditionalOnMissingBean
    WorkerCacheFiles workerCacheFiles(LeafProperties leaf, InstanceAddress instance) {
        return new WorkerCacheFiles(leaf.dataDir(), leaf.name(), instance.port());
    }

    /**
     * The layout of {@code leaf.snowflake.layout*}, {@code time-unit}, {@code epoch}/{@code twepoch},
     * checked against the clock: refused when it has not begun, has ended or ends within a year,
     * a warning within five years; its end is logged.
     */
    @Bean
    @ConditionalOnMissingBean
    SnowflakeLayout snowflakeLayout(SnowflakeProperties properties, InstantSource leafClock, Environment environment) {
        SnowflakeLayout layout = LayoutKeys.layout(properties, environment);
        Instant now = leafClock.instant();
        String keys = "leaf.snowflake.layout (or .time-bits, .worker-bits, .sequence-bits), leaf.snowflake.time-unit "
                + "and leaf.snowflake.epoch/twepoch";
        if (now.toEpochMilli() < layout.twepoch()) {
            throw new LeafConfigurationException(properties.epoch() != null ? "leaf.snowflake.epoch"
                    : "leaf.snowflake.twepoch", "is " + Instant.ofEpochMilli(layout.twepoch()) + ", after the clock ("
                    + now + "): IDs cannot carry a time before their epoch.", "Set an epoch in the past, or keep the "
                    + "one your IDs were issued with.");
        }
        Instant end = layout.endsAt();
        if (!end.isAfter(now.plus(LAYOUT_REFUSED_WITHIN))) {
            throw new LeafConfigurationException("leaf.snowflake.layout", "is " + layout.describe() + " from "
                    + Instant.ofEpochMilli(layout.twepoch()) + ", which " + (end.isAfter(now) ? "ends" : "ended") + " at "
                    + end + ": IDs would stop, or in careless generators go negative or repeat.", "Change " + keys
                    + ": more time bits, or a later epoch (only for IDs never issued before; see docs/uid-generator.md).");
        }
        if (!end.isAfter(now.plus(LAYOUT_WARNED_WITHIN))) {
            log.warn("Snowflake layout {} ends at {}, in less than 5 years: plan a layout with more time bits "
                    + "({})", layout.describe(), end, keys);
        }
        log.info("Snowflake layout {} from {}: worker ids 0..{}, {} IDs per {} and worker, ends at {}",
                layout.describe(), Instant.ofEpochMilli(layout.twepoch()), layout.maxWorkerId(),
                layout.maxSequence() + 1, layout.unit() == SnowflakeLayout.Unit.SECONDS ? "second" : "ms", end);
        return layout;
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    @ConditionalOnMissingBean
    WorkerIdHolder workerIdHolder(WorkerIdRegistry workerIdRegistry, SnowflakeProperties properties,
            InstantSource leafClock, Sleeper leafSleeper) {
        return new ReservingWorkerIdHolder(workerIdRegistry, leafClock, leafSleeper, properties.reportInterval(),
                properties.maxStartWait());
    }

    /** Closing it (before the holder, which it depends on) records how far IDs really went. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    SnowflakeGenerator snowflakeGenerator(SnowflakeLayout snowflakeLayout, WorkerIdHolder workerIdHolder,
            WorkerIdRegistry workerIdRegistry, InstantSource leafClock, Sleeper leafSleeper,
            SnowflakeProperties properties, WorkerIdModeChoice workerIdModeChoice) {
        // Every mode's registry checks its ids against the layout; this also covers an application's
        // own registry and ids read from a cache file written under another layout.
        int workerId = workerIdHolder.lease().workerId();
        if (workerId > snowflakeLayout.maxWorkerId()) {
            throw new WorkerIdUnavailableException("Worker id " + workerId + " (leaf.snowflake.mode="
                    + workerIdModeChoice.mode().key() + ") does not fit the " + snowflakeLayout.workerBits()
                    + " worker bits of layout " + snowflakeLayout.describe() + " (ids 0.." + snowflakeLayout.maxWorkerId()
                    + "): give this instance a smaller worker id, or choose a layout with more worker bits "
                    + "(leaf.snowflake.layout, .worker-bits)");
        }
        return new SnowflakeGenerator(snowflakeLayout, workerIdHolder, leafClock, leafSleeper,
                ThreadLocalRandom.current(), properties.maxBackwardsWait(),
                borrowing(properties, workerIdRegistry));
    }

    /** An id never held by a later process (the disposable mode's) lets borrowing go past the reservation. */
    private static Borrowing borrowing(SnowflakeProperties properties, WorkerIdRegistry registry) {
        if (!properties.borrowAhead()) {
            return Borrowing.NONE;
        }
        return registry.givesEachIdOnce() ? Borrowing.UNBOUNDED : Borrowing.WITHIN_RESERVATION;
    }

    /** On the application's registry; without one (no Micrometer setup) the meters are kept but not published. */
    @Bean
    @ConditionalOnMissingBean
    SnowflakeMeters snowflakeMeters(ObjectProvider<MeterRegistry> registry, SnowflakeGenerator snowflakeGenerator,
            WorkerIdHolder workerIdHolder, InstantSource leafClock) {
        return new SnowflakeMeters(registry.getIfAvailable(SimpleMeterRegistry::new), snowflakeGenerator,
                workerIdHolder, leafClock);
    }

    @Bean
    @ConditionalOnMissingBean
    SnowflakeStartReport snowflakeStartReport(WorkerIdHolder workerIdHolder, WorkerIdModeChoice workerIdModeChoice,
            InstanceAddress instance) {
        return new SnowflakeStartReport(workerIdHolder, workerIdModeChoice, instance);
    }

    /** Readiness {@code workerId}: UP only while the id is held and safe; with Spring Boot's health support only. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = "workerIdHealthIndicator")
        WorkerIdHealthIndicator workerIdHealthIndicator(WorkerIdHolder workerIdHolder, InstantSource leafClock) {
            return new WorkerIdHealthIndicator(workerIdHolder, leafClock);
        }
    }
}
