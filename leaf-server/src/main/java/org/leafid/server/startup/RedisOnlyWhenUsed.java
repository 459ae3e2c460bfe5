package org.leafid.server.startup;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.leafid.autoconfigure.LeafSwitchCondition;
import org.leafid.autoconfigure.mode.FleetWitness;
import org.leafid.autoconfigure.mode.FleetWitnessChoice;
import org.leafid.autoconfigure.mode.WorkerIdModeCondition;
import org.leafid.autoconfigure.shard.ShardBufferCondition;
import org.leafid.autoconfigure.shard.ShardProperties;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * Leaves Spring Boot's Redis auto-configuration out of the server unless something of Leaf uses
 * Redis: shard mode's Redis buffer ({@code leaf.shard.buffer=redis}), the {@code redis} worker-id
 * mode of snowflake ({@code leaf.snowflake.mode=redis}, snowflake on), or the fleet's witness of
 * segment and shard reservations ({@code leaf.witness.fleet=redis}). Nothing else in the server
 * talks to Redis, and Boot would otherwise make a Lettuce client (Netty's event loops and their
 * classes) on every start, and scan for Redis repositories, for nothing. Only the server does this;
 * an application embedding the starter keeps its Redis as it configured it.
 */
public final class RedisOnlyWhenUsed implements EnvironmentPostProcessor, Ordered {

    static final String EXCLUDE = "spring.autoconfigure.exclude";

    /** Every auto-configuration of spring-boot-data-redis (Boot 4.1). */
    static final List<String> REDIS_AUTO_CONFIGURATIONS = List.of(
            "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.observation.LettuceObservationAutoConfiguration");

    /** After the config files and leaf.properties are read, so their leaf.shard.buffer and leaf.snowflake.mode count. */
    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER + 10;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (redisBuffer(environment) || redisWorkerIds(environment) || redisWitness(environment)) {
            return;
        }
        Set<String> excluded = new LinkedHashSet<>();
        for (String name : StringUtils.commaDelimitedListToStringArray(environment.getProperty(EXCLUDE, ""))) {
            if (!name.isBlank()) {
                excluded.add(name.trim());
            }
        }
        excluded.addAll(REDIS_AUTO_CONFIGURATIONS);
        environment.getPropertySources().addFirst(new MapPropertySource("leafRedisOnlyWhenUsed",
                Map.of(EXCLUDE, String.join(",", excluded))));
    }

    /**
     * The fleet's witness of segment and shard reservations in Redis ({@code leaf.witness.fleet}), read
     * as its conditions read it. Shard mode counts unless switched off: unset, it may be on (the embedded
     * database), which only the bean definitions decide.
     */
    private static boolean redisWitness(ConfigurableEnvironment environment) {
        try {
            boolean reservesBlocks = LeafSwitchCondition.isOn(environment, "leaf.segment.enable")
                    || Binder.get(environment).bind("leaf.shard.enable", Boolean.class).orElse(true);
            return reservesBlocks && FleetWitnessChoice.of(environment).witness() == FleetWitness.REDIS;
        } catch (BindException notAWitness) {
            return false;
        }
    }

    /**
     * Read through the Binder, as {@code ShardProperties} and {@code @ConditionalOnShardBuffer} read it, so
     * the three never disagree on a spelling. A value that is no buffer leaves Redis out here: binding
     * {@code leaf.shard.buffer} later stops the start naming the key, as it always did.
     */
    private static boolean redisBuffer(ConfigurableEnvironment environment) {
        try {
            return ShardBufferCondition.buffer(environment) == ShardProperties.Buffer.REDIS;
        } catch (BindException notABuffer) {
            return false;
        }
    }

    /**
     * Read through the Binder, as {@code SnowflakeProperties} and {@code @ConditionalOnWorkerIdMode}
     * read it ({@link WorkerIdModeCondition#choice}), with snowflake's own switch. A value that is no
     * mode, or a switch that is no boolean, leaves Redis out here: binding them later stops the start
     * naming the key.
     */
    private static boolean redisWorkerIds(ConfigurableEnvironment environment) {
        try {
            return LeafSwitchCondition.isOn(environment, "leaf.snowflake.enable")
                    && WorkerIdModeCondition.choice(environment).mode().module().equals("leaf-redis");
        } catch (BindException notAMode) {
            return false;
        }
    }
}
