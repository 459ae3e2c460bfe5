package org.leafid.server.config;

import java.time.InstantSource;
import java.util.concurrent.ThreadLocalRandom;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.snowflake.WorkerIdHolder;
import org.leafid.server.worker.InstanceAddress;
import org.leafid.server.worker.local.LocalWorkerIdHolders;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/** Snowflake mode: this instance's address, its worker-id holder and the generator. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "leaf.snowflake.enable", havingValue = "true", matchIfMissing = true)
class SnowflakeConfiguration {

    @Bean
    InstanceAddress instanceAddress(SnowflakeProperties properties, Environment environment) {
        int port = properties.port() != null
                ? properties.port()
                : environment.getProperty("server.port", Integer.class, 8080);
        if (port <= 0) {
            throw new IllegalArgumentException("leaf.snowflake.port must be set when server.port is " + port
                    + ": the port names this instance's worker id");
        }
        String ip = properties.ip() == null || properties.ip().isBlank() ? InstanceAddress.detectIp() : properties.ip();
        return new InstanceAddress(ip, port);
    }

    @Bean
    SnowflakeLayout snowflakeLayout(SnowflakeProperties properties, InstantSource leafClock) {
        SnowflakeLayout layout = new SnowflakeLayout(properties.twepoch());
        long now = leafClock.millis();
        if (now < properties.twepoch() || now > layout.lastRepresentableMillis()) {
            throw new IllegalArgumentException("leaf.snowflake.twepoch=" + properties.twepoch()
                    + " does not fit the clock (" + now + "): it must be in the past and less than 2^41 ms ago");
        }
        return layout;
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    WorkerIdHolder workerIdHolder(SnowflakeProperties properties, LeafProperties leaf, InstanceAddress instance,
            InstantSource leafClock, Sleeper leafSleeper) {
        return switch (properties.mode()) {
            case LOCAL -> LocalWorkerIdHolders.create(properties, leaf, instance, leafClock, leafSleeper);
            case ZK_NORMAL, ZK_RECYCLE, MYSQL -> throw new IllegalArgumentException("leaf.snowflake.mode="
                    + properties.mode().name().toLowerCase() + " is not available in this version; use local");
        };
    }

    @Bean
    SnowflakeGenerator snowflakeGenerator(SnowflakeLayout snowflakeLayout, WorkerIdHolder workerIdHolder,
            InstantSource leafClock, Sleeper leafSleeper, SnowflakeProperties properties) {
        return new SnowflakeGenerator(snowflakeLayout, workerIdHolder, leafClock, leafSleeper,
                ThreadLocalRandom.current(), properties.maxBackwardsWait());
    }
}
