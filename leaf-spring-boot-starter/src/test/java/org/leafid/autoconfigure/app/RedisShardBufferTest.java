package org.leafid.autoconfigure.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.autoconfigure.shard.ShardAppRefresher;
import org.leafid.autoconfigure.shard.ShardBufferStatus;
import org.leafid.core.shard.ShardId;
import org.leafid.core.shard.ShardIdGenerator;
import org.leafid.jdbc.testing.TestDatabase;
import org.leafid.redis.RedisShardIndexSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * An application with {@code leaf.shard.buffer=redis}, on MariaDB (a database of this class's own)
 * and the local Redis (127.0.0.1:6379): the buffer is made from Spring Boot's Redis support and
 * uses the Redis-queue services' keys, serves a list such a service left behind first, deletes the
 * lists of an app removed from {@code id_alloc} at the next refresh; with the memory buffer no
 * Redis part is made at all.
 */
class RedisShardBufferTest {

    private static final int APP = 201;
    private static final TestDatabase DATABASE = TestDatabase.get().derived("redisbuffer");

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ShardApplication {}

    @TempDir
    Path dataDir;

    private final List<ConfigurableApplicationContext> started = new ArrayList<>();
    private final String name = "redis-buffer-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void createApp() {
        for (String table : List.of("id_alloc", "leaf_shard_key", "leaf_shard_watermark")) {
            DATABASE.update("DELETE FROM " + table + " WHERE app_id = ?", APP);
        }
        for (int shard = 0; shard < ShardId.SHARDS; shard++) {
            DATABASE.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, max_limit_id) "
                    + "VALUES (?, 'redis-buffer-test', 0, ?, 100, 0)", APP, shard);
        }
    }

    @AfterEach
    void stopAndClean() {
        started.forEach(ConfigurableApplicationContext::close);
        try (ConfigurableApplicationContext cleaner = start("memory", List.of())) {
            // a context only for its StringRedisTemplate
            StringRedisTemplate redis = cleaner.getBean(StringRedisTemplate.class);
            for (int shard = 0; shard < ShardId.SHARDS; shard++) {
                redis.delete(List.of(list(shard), "id.gen.lock_" + APP + "_" + shard));
            }
        }
    }

    @Test
    void theRedisBufferServesTheirListsAndALeftOverListFirst() throws Exception {
        int shard = ShardId.shardOf("alice@example.com");
        // As their service leaves a shard: a block reserved in id_alloc (max_id 100), indexes 61..100
        // still in the list.
        DATABASE.update("UPDATE id_alloc SET max_id = 100 WHERE app_id = ? AND shard_id = ?", APP, shard);
        ConfigurableApplicationContext application = start("redis", List.of());
        StringRedisTemplate redis = application.getBean(StringRedisTemplate.class);
        for (long index = 61; index <= 100; index++) {
            redis.opsForList().rightPush(list(shard), Long.toString(index));
        }

        ShardIdGenerator generator = application.getBean(ShardIdGenerator.class);
        assertThat(application.getBeansOfType(RedisShardIndexSource.class)).hasSize(1);
        assertThat(application.getBean(ShardBufferStatus.class).source()).isEqualTo("redis");
        long[] alice = new long[60];
        for (int i = 0; i < alice.length; i++) {
            alice[i] = ShardId.decode(generator.nextId(APP, "alice@example.com")).index();
        }
        // 61..100 from the list they left, then 101.. from a block this buffer reserved and pushed.
        assertThat(alice[0]).isEqualTo(61);
        assertThat(alice[39]).isEqualTo(100);
        assertThat(alice[40]).isEqualTo(101);
        assertThat(alice).doesNotHaveDuplicates();

        long[][] ids = ConcurrentIds.take(8, 2_000, () -> generator.nextId(APP, null));
        assertThat(ConcurrentIds.assertNoDuplicate(ids)).hasSize(16_000);
        // The round-robin shards were refilled through their lists: some are left waiting there.
        assertThat(application.getBean(ShardBufferStatus.class).queueLength(APP)).isPositive();
        assertThat(redis.hasKey(list((shard + 1) % ShardId.SHARDS))).isTrue();
    }

    @Test
    void theListsOfAnAppRemovedFromIdAllocAreDeletedAtTheNextRefresh() {
        ConfigurableApplicationContext application = start("redis", List.of());
        StringRedisTemplate redis = application.getBean(StringRedisTemplate.class);
        ShardIdGenerator generator = application.getBean(ShardIdGenerator.class);
        for (int i = 0; i < 64; i++) {
            generator.nextId(APP, null);
        }
        assertThat(redis.hasKey(list(0))).isTrue();

        DATABASE.update("DELETE FROM id_alloc WHERE app_id = ?", APP);
        application.getBean(ShardAppRefresher.class).refresh();

        for (int shard = 0; shard < ShardId.SHARDS; shard++) {
            assertThat(redis.hasKey(list(shard))).as("list of shard %d", shard).isFalse();
        }
    }

    @Test
    void theMemoryBufferMakesNoRedisPartEvenWithRedisConfigured() throws IOException {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0)) {
            closedPort = probe.getLocalPort();
        }
        ConfigurableApplicationContext application = start("memory",
                List.of("spring.data.redis.port=" + closedPort));

        assertThat(application.getBeansOfType(RedisShardIndexSource.class)).isEmpty();
        assertThat(application.getBean(ShardBufferStatus.class).source()).isEqualTo("memory");
        long id = application.getBean(ShardIdGenerator.class).nextId(APP, "bob");
        assertThat(ShardId.decode(id).appId()).isEqualTo(APP);
    }

    private ConfigurableApplicationContext start(String buffer, List<String> more) {
        List<String> settings = LeafApplications.baseSettings(name, dataDir, 19560);
        settings.addAll(LeafApplications.jdbcSettings(DATABASE));
        settings.addAll(List.of("leaf.segment.enable=false", "leaf.snowflake.enable=false", "leaf.shard.enable=true",
                "leaf.shard.buffer=" + buffer, "leaf.shard.refresh-interval=1h"));
        settings.addAll(more);
        ConfigurableApplicationContext application = LeafApplications.start(ShardApplication.class, settings);
        started.add(application);
        return application;
    }

    private static String list(int shard) {
        return "id.gen.idList_" + APP + "_" + shard;
    }
}
