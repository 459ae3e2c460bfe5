package org.leafid.autoconfigure.snowflake.redis;

import java.time.Duration;
import java.time.InstantSource;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.RedisConnectTimeoutsConfiguration;
import org.leafid.autoconfigure.mode.ConditionalOnWorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.snowflake.SnowflakeAutoConfiguration;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.redis.worker.RedisWorkerIdRegistry;
import org.leafid.redis.worker.RedisWorkerSettings;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Worker-id mode {@code redis}: ids leased in Redis, reached through Spring Boot's own support
 * ({@code spring.data.redis.*}), as shard mode's Redis buffer reaches it. Without leaf-redis and
 * Spring Data Redis on the class path the start fails naming the key, rather than running without
 * a registry.
 */
@AutoConfiguration(before = SnowflakeAutoConfiguration.class,
        afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnWorkerIdMode(WorkerIdMode.REDIS)
@ConditionalOnMissingBean(WorkerIdRegistry.class) // an application's own registry: nothing of the mode is made
public class RedisWorkerIdAutoConfiguration {

    /**
     * How long a lease write waits for its replicas: well inside a renewal's report interval, and
     * below the server's Redis command timeout (500 ms), which bounds the WAIT's answer too.
     */
    static final Duration REPLICA_ACK_TIMEOUT = Duration.ofMillis(200);

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({RedisWorkerIdRegistry.class, StringRedisTemplate.class})
    @Import(RedisConnectTimeoutsConfiguration.class)
    static class Leases {

        @Bean
        @ConditionalOnMissingBean
        WorkerIdRegistry workerIdRegistry(ObjectProvider<StringRedisTemplate> redis, RedisModeSettings modeSettings,
                SnowflakeProperties properties,
                LeafProperties leaf, InstanceAddress instance, WorkerCacheFiles files, SnowflakeLayout snowflakeLayout,
                InstantSource leafClock, Sleeper leafSleeper, Environment environment) {
            StringRedisTemplate template = redis.getIfAvailable();
            if (template == null) {
                throw missing("the application has no StringRedisTemplate.");
            }
            RedisModeSettings checked = modeSettings.checkedAgainst(properties.reportInterval());
            String prefix = checked.keyPrefix();
            RedisWorkerSettings settings = new RedisWorkerSettings(prefix == null || prefix.isEmpty()
                    ? RedisWorkerSettings.defaultKeyPrefix(leaf.name()) : prefix, checked.lease(),
                    snowflakeLayout.maxWorkerId(),
                    checked.replicaAcks(environment.containsProperty("spring.data.redis.sentinel.master")),
                    REPLICA_ACK_TIMEOUT);
            return new RedisWorkerIdRegistry(template, settings, instance, files.registry(), leafClock, leafSleeper);
        }

        /** The release before Spring Boot stops the Redis connection factory ({@link RedisLeaseRelease}). */
        @Bean
        RedisLeaseRelease redisLeaseRelease(ObjectProvider<SnowflakeGenerator> snowflakeGenerator) {
            return new RedisLeaseRelease(snowflakeGenerator);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional(ClassesMissing.class)
    static class Missing {

        @Bean
        WorkerIdRegistry workerIdRegistry() {
            throw missing("leaf-redis or Spring Data Redis is not on the class path.");
        }
    }

    /** Either class of {@link Leases} is missing. */
    static final class ClassesMissing extends NoneNestedConditions {

        ClassesMissing() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnClass(name = {"org.leafid.redis.worker.RedisWorkerIdRegistry",
                "org.springframework.data.redis.core.StringRedisTemplate"})
        static final class BothPresent {}
    }

    private static LeafConfigurationException missing(String problem) {
        return new LeafConfigurationException("leaf.snowflake.mode", "is redis, but " + problem,
                "Add leaf-redis and spring-boot-starter-data-redis, which makes a StringRedisTemplate from "
                        + "spring.data.redis.*, or choose another leaf.snowflake.mode.");
    }
}
