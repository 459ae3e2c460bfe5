package org.leafid.autoconfigure.shard.redis;

import java.time.InstantSource;
import java.util.Set;
import java.util.stream.Collectors;
import io.lettuce.core.ClientOptions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.autoconfigure.ClockAutoConfiguration;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.RedisConnectTimeoutsConfiguration;
import org.leafid.autoconfigure.jdbc.JdbcProperties;
import org.leafid.autoconfigure.jdbc.LeafJdbcAutoConfiguration;
import org.leafid.autoconfigure.jdbc.StoreWentBackMeter;
import org.leafid.autoconfigure.shard.ConditionalOnShardBuffer;
import org.leafid.autoconfigure.shard.ShardAppsListener;
import org.leafid.autoconfigure.shard.ShardAutoConfiguration;
import org.leafid.autoconfigure.shard.ShardBufferStatus;
import org.leafid.autoconfigure.shard.ShardProperties;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.ReservationWitness;
import org.leafid.core.shard.IssuedWatermarks;
import org.leafid.core.shard.MemoryShardIndexSource;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardAppDirectory;
import org.leafid.core.shard.ShardStore;
import org.leafid.core.shard.ShardStoreException;
import org.leafid.core.shard.WitnessedShardStore;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.shard.JdbcIssuedWatermarks;
import org.leafid.redis.RedisBufferSettings;
import org.leafid.redis.RedisShardIndexSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Shard mode's Redis buffer ({@code leaf.shard.buffer=redis}): the lists and locks of the
 * Redis-queue ID services ({@code id.gen.idList_{app}_{shard}}, {@code id.gen.lock_{app}_{shard}}),
 * Redis reached through Spring Boot's own support ({@code spring.data.redis.*}), the memory buffer
 * standing in while Redis does not answer, the issued watermarks of the lagging-replica guard in
 * the database, the lists of apps gone from {@code id_alloc} deleted at each refresh, and the
 * queue meters. Registered before the shard configuration, whose memory-only parts then give way.
 */
@AutoConfiguration(before = ShardAutoConfiguration.class, after = {ClockAutoConfiguration.class,
        LeafJdbcAutoConfiguration.class},
        afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass(value = {RedisShardIndexSource.class, StringRedisTemplate.class},
        name = LeafJdbcAutoConfiguration.MODULE_CLASS)
@ConditionalOnShardBuffer(ShardProperties.Buffer.REDIS)
@Import(RedisConnectTimeoutsConfiguration.class)
public class RedisShardBufferAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(RedisShardBufferAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean(IssuedWatermarks.class)
    JdbcIssuedWatermarks issuedWatermarks(SqlSessionFactory leafSqlSessions) {
        return new JdbcIssuedWatermarks(leafSqlSessions);
    }

    @Bean
    @ConditionalOnMissingBean
    RedisShardIndexSource redisShardIndexSource(ObjectProvider<StringRedisTemplate> redis, ShardStore shardStore,
            IssuedWatermarks issuedWatermarks, MemoryShardIndexSource memoryShardIndexSource,
            ShardProperties properties, InstantSource leafClock, Sleeper leafSleeper,
            @Qualifier("shardBlockWitness") ReservationWitness shardBlockWitness, JdbcProperties jdbc,
            ObjectProvider<MeterRegistry> registry) {
        StringRedisTemplate template = redis.getIfAvailable();
        if (template == null) {
            throw new LeafConfigurationException("leaf.shard.buffer", "is redis, but the application has no "
                    + "StringRedisTemplate.", "Add spring-boot-starter-data-redis, which makes one from "
                    + "spring.data.redis.*, or set leaf.shard.buffer=memory.");
        }
        requireWatermarkTable(issuedWatermarks);
        ShardProperties.Redis timings = properties.redis();
        RedisBufferSettings settings = new RedisBufferSettings(timings.lockTtl(), timings.lockWait(),
                timings.retryInterval(), timings.watermarkInterval());
        // Refills push whole blocks into Redis: each is witnessed first, as the memory buffer's are.
        WitnessedShardStore witnessed = new WitnessedShardStore(shardStore, shardBlockWitness,
                jdbc.wentBackSkipBlocks(),
                new StoreWentBackMeter(registry.getIfAvailable(SimpleMeterRegistry::new), "id_alloc"));
        return new RedisShardIndexSource(template, witnessed, issuedWatermarks, memoryShardIndexSource, settings,
                leafClock, leafSleeper);
    }

    /**
     * Without {@code leaf_shard_watermark} every watermark sync fails (a WARN per shard and interval)
     * and the lagging-replica guard never learns what other instances popped: refuse to start. A
     * database that does not answer now is left to the guard's own retries.
     */
    private static void requireWatermarkTable(IssuedWatermarks watermarks) {
        try {
            watermarks.highest(0, 0);
        } catch (ShardStoreException e) {
            if (SqlFailures.classify(e) == SqlFailures.Kind.MISSING_TABLE) {
                throw new LeafConfigurationException("leaf.shard.buffer", "is redis, but the table "
                        + "leaf_shard_watermark of the lagging-replica guard is missing: " + e.getMessage(),
                        "Run " + SqlDialect.scripts("leaf_shard.sql")
                                + " on the database of id_alloc (it creates Leaf's own shard tables "
                        + "and leaves id_alloc as it is).");
            }
        }
    }

    /**
     * Lists of apps no longer in id_alloc are deleted, so that a re-created app id is not served old
     * indexes. An empty app list deletes nothing: far more often a server pointed at the wrong (or a
     * new) database beside a Redis that a running deployment uses than the removal of every app.
     */
    @Bean
    ShardAppsListener redisListCleanup(RedisShardIndexSource redisShardIndexSource) {
        return apps -> {
            if (apps.isEmpty()) {
                log.warn("Shard mode: id_alloc lists no app, so no Redis list is deleted; check that leaf.jdbc.url "
                        + "names the database of the apps");
                return;
            }
            Set<Integer> listed = apps.stream().map(ShardApp::appId).collect(Collectors.toSet());
            redisShardIndexSource.removeListsOfAppsOtherThan(listed);
        };
    }

    @Bean
    @ConditionalOnMissingBean
    ShardBufferStatus shardBufferStatus(RedisShardIndexSource redisShardIndexSource, ShardAppDirectory shardApps) {
        return new RedisBufferStatus(redisShardIndexSource, shardApps);
    }

    @Bean
    ShardAppsListener redisShardMeters(ObjectProvider<MeterRegistry> registry, ShardBufferStatus shardBufferStatus,
            RedisShardIndexSource redisShardIndexSource) {
        return new RedisShardMeters(registry.getIfAvailable(SimpleMeterRegistry::new), shardBufferStatus,
                redisShardIndexSource);
    }

    /**
     * While Redis is disconnected, Lettuce would queue commands until their timeout; refused at
     * once instead, the request is served from memory without waiting.
     */
    @Bean
    LettuceClientOptionsBuilderCustomizer leafRedisFailFast() {
        return options -> options.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
    }
}
