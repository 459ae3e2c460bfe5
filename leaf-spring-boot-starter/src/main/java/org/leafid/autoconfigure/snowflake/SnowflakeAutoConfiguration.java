package org.leafid.autoconfigure.snowflake;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.InstantSource;
import java.util.concurrent.ThreadLocalRandom;
import org.leafid.autoconfigure.ClockAutoConfiguration;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.LeafPropertiesAutoConfiguration;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.ReservingWorkerIdHolder;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.snowflake.WorkerIdHolder;
import org.leafid.core.snowflake.WorkerIdRegistry;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
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
 * ({@link LocalWorkerIdAutoConfiguration}, {@link JdbcWorkerIdAutoConfiguration},
 * {@link ZookeeperWorkerIdAutoConfiguration}), or from the application: a {@link WorkerIdRegistry}
 * bean of its own replaces them all.
 */
@AutoConfiguration(after = {LeafPropertiesAutoConfiguration.class, ClockAutoConfiguration.class})
@ConditionalOnLeafSwitch("leaf.snowflake.enable")
public class SnowflakeAutoConfiguration {

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

    @Bean
    @ConditionalOnMissingBean
    SnowflakeLayout snowflakeLayout(SnowflakeProperties properties, InstantSource leafClock) {
        SnowflakeLayout layout = new SnowflakeLayout(properties.twepoch());
        long now = leafClock.millis();
        if (now < properties.twepoch() || now > layout.lastRepresentableMillis()) {
            throw new LeafConfigurationException("leaf.snowflake.twepoch", "is " + properties.twepoch()
                    + ", which does not fit the clock (" + now + "): it must be in the past and less than 2^41 ms ago.",
                    "Remove it to use Leaf's default 1288834974657, or keep the value your IDs were issued with.");
        }
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
            InstantSource leafClock, Sleeper leafSleeper, SnowflakeProperties properties) {
        return new SnowflakeGenerator(snowflakeLayout, workerIdHolder, leafClock, leafSleeper,
                ThreadLocalRandom.current(), properties.maxBackwardsWait());
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
    SnowflakeStartReport snowflakeStartReport(WorkerIdHolder workerIdHolder, Environment environment,
            InstanceAddress instance) {
        return new SnowflakeStartReport(workerIdHolder, WorkerIdModeCondition.choice(environment), instance);
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
