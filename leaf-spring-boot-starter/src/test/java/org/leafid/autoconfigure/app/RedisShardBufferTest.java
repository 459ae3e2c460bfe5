package org.leafid.autoconfigure.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.shard.ShardAppRefresher;
import org.leafid.autoconfigure.shard.ShardBufferStatus;
import org.leafid.core.shard.ShardId;
import org.leafid.core.shard.ShardIdGenerator;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.redis.RedisShardIndexSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * An application with {@code leaf.shard.buffer=redis}, on MariaDB (a database of this class's own)
 * and the local Redis (127.0.0.1:6379): the buffer is made from Spring Boot's Redis support and
 * uses the Redis-queue services' keys, serves a list such a service left behind first, deletes the
 * lists of an app removed from {@code id_alloc} at the next refresh (none when the table lists no
 * app), does not serve again a list that went back in time (same instance, fresh instance), and
 * refuses a database without the guard's table; with the memory buffer no Redis part is made and
 * no connection attempted.
 */
class RedisShardBufferTest {

    private static final int APP = 201;
    /** Stays in id_alloc while APP is removed: an empty id_alloc deletes no list. */
    private static final int OTHER_APP = 202;
    /**
     * The local Redis's database these tests use: the buffer deletes the lists of every app that is
     * not in this class's id_alloc, which in database 0 would be the lists other suites are using.
     */
    private static final int REDIS_DATABASE = 13;
    private static final TestDatabase DATABASE = TestDatabase.get().derived("redisbuffer");

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ShardApplication {}

    @TempDir
    Path dataDir;

    private final List<ConfigurableApplicationContext> started = new ArrayList<>();
    private final String name = "redis-buffer-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void createApps() {
        for (int app : new int[] {APP, OTHER_APP}) {
            DATABASE.forgetApps(app);
            for (int shard = 0; shard < ShardId.SHARDS; shard++) {
                DATABASE.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, max_limit_id) "
                        + "VALUES (?, 'redis-buffer-test', 0, ?, 100, 0)", app, shard);
            }
        }
    }

    @AfterEach
    void stopAndClean() {
        started.forEach(ConfigurableApplicationContext::close);
        try (ConfigurableApplicationContext cleaner = start("memory", List.of())) {
            // a context only for its StringRedisTemplate
            StringRedisTemplate redis = cleaner.getBean(StringRedisTemplate.class);
            for (int app : new int[] {APP, OTHER_APP}) {
                for (int shard = 0; shard < ShardId.SHARDS; shard++) {
                    // The list, its lock and the guard hash Leaf keeps beside it.
                    redis.delete(List.of(list(app, shard), "id.gen.lock_" + app + "_" + shard,
                            "{" + list(app, shard) + "}.leaf"));
                }
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
        ConfigurableApplicationContext application = startWithEveryListFilled();
        StringRedisTemplate redis = application.getBean(StringRedisTemplate.class);
        assertThat(redis.hasKey(list(0))).isTrue();

        DATABASE.update("DELETE FROM id_alloc WHERE app_id = ?", APP);
        application.getBean(ShardAppRefresher.class).refresh();

        for (int shard = 0; shard < ShardId.SHARDS; shard++) {
            assertThat(redis.hasKey(list(shard))).as("list of shard %d", shard).isFalse();
        }
    }

    @Test
    void anEmptyIdAllocDeletesNoList() {
        ConfigurableApplicationContext application = startWithEveryListFilled();
        StringRedisTemplate redis = application.getBean(StringRedisTemplate.class);

        // A server pointed at a database without the apps, beside a Redis whose lists are in use.
        DATABASE.update("DELETE FROM id_alloc WHERE app_id IN (?, ?)", APP, OTHER_APP);
        application.getBean(ShardAppRefresher.class).refresh();

        for (int shard = 0; shard < ShardId.SHARDS; shard++) {
            assertThat(redis.hasKey(list(shard))).as("list of shard %d", shard).isTrue();
        }
    }

    @Test
    void aListThatWentBackInTimeIsNotServedAgainByThisInstanceNorByAFreshOne() {
        String gatePass = "carol@example.com";
        int shard = ShardId.shardOf(gatePass);
        Set<Long> issued = new HashSet<>();
        ConfigurableApplicationContext first = start("redis", List.of());
        StringRedisTemplate redis = first.getBean(StringRedisTemplate.class);
        ShardIdGenerator firstGenerator = first.getBean(ShardIdGenerator.class);
        for (int i = 0; i < 30; i++) {
            assertThat(issued.add(index(firstGenerator.nextId(APP, gatePass)))).isTrue();
        }
        // A failover to a replica that holds the list as it was just after the refill: 1..100 again.
        pushLaggingList(redis, shard);
        for (int i = 0; i < 30; i++) {
            assertThat(issued.add(index(firstGenerator.nextId(APP, gatePass)))).as("reissued by the same instance")
                    .isTrue();
        }
        // The watermark every instance checks is written at the next sync (leaf.shard.redis.watermark-interval).
        long highest = issued.stream().mapToLong(Long::longValue).max().orElseThrow();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            issued.add(index(firstGenerator.nextId(APP, gatePass)));
            return watermark(shard) >= highest;
        });
        pushLaggingList(redis, shard);
        first.close();

        ShardIdGenerator secondGenerator = start("redis", List.of()).getBean(ShardIdGenerator.class);
        long[] fromSecond = new long[50];
        for (int i = 0; i < fromSecond.length; i++) {
            fromSecond[i] = index(secondGenerator.nextId(APP, gatePass));
        }

        for (long index : fromSecond) {
            assertThat(issued).as("index %d reissued by a fresh instance", index).doesNotContain(index);
        }
        assertThat(fromSecond[0]).isGreaterThan(highest);
    }

    @Test
    void aDatabaseWithoutLeafShardWatermarkStopsTheStartSayingWhichScriptToRun() {
        TestDatabase withoutGuardTable = TestDatabase.get().derived("nowatermark");
        withoutGuardTable.update("DROP TABLE IF EXISTS leaf_shard_watermark");
        List<String> settings = LeafApplications.baseSettings(name, dataDir, 19561);
        settings.addAll(LeafApplications.jdbcSettings(withoutGuardTable));
        settings.addAll(List.of("leaf.segment.enable=false", "leaf.snowflake.enable=false", "leaf.shard.enable=true",
                "leaf.shard.buffer=redis", "spring.data.redis.database=" + REDIS_DATABASE));

        assertThatThrownBy(() -> LeafApplications.start(ShardApplication.class, settings))
                .rootCause().isInstanceOf(LeafConfigurationException.class)
                .hasMessageContaining("leaf_shard_watermark").hasMessageContaining("sql/leaf_shard.sql");
    }

    @Test
    void theMemoryBufferMakesNoRedisPartEvenWithRedisConfigured() throws IOException {
        // A port that accepts connections and never answers: any attempt to reach Redis would show here.
        try (ServerSocket notRedis = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            ConfigurableApplicationContext application = start("memory",
                    List.of("spring.data.redis.port=" + notRedis.getLocalPort()));

            assertThat(application.getBeansOfType(RedisShardIndexSource.class)).isEmpty();
            assertThat(application.getBean(ShardBufferStatus.class).source()).isEqualTo("memory");
            long id = application.getBean(ShardIdGenerator.class).nextId(APP, "bob");
            assertThat(ShardId.decode(id).appId()).isEqualTo(APP);
            application.close();

            notRedis.setSoTimeout(300);
            assertThatThrownBy(notRedis::accept).as("a connection to spring.data.redis.port")
                    .isInstanceOf(SocketTimeoutException.class);
        }
    }

    /** A Redis-buffer application that took one ID of APP per shard (round-robin): every list of APP exists. */
    private ConfigurableApplicationContext startWithEveryListFilled() {
        ConfigurableApplicationContext application = start("redis", List.of());
        ShardIdGenerator generator = application.getBean(ShardIdGenerator.class);
        for (int i = 0; i < ShardId.SHARDS; i++) {
            generator.nextId(APP, null);
        }
        return application;
    }

    private ConfigurableApplicationContext start(String buffer, List<String> more) {
        List<String> settings = LeafApplications.baseSettings(name, dataDir, 19560);
        settings.addAll(LeafApplications.jdbcSettings(DATABASE));
        settings.addAll(List.of("leaf.segment.enable=false", "leaf.snowflake.enable=false", "leaf.shard.enable=true",
                "leaf.shard.buffer=" + buffer, "leaf.shard.refresh-interval=1h",
                "spring.data.redis.database=" + REDIS_DATABASE));
        settings.addAll(more);
        ConfigurableApplicationContext application = LeafApplications.start(ShardApplication.class, settings);
        started.add(application);
        return application;
    }

    private static String list(int shard) {
        return list(APP, shard);
    }

    private static String list(int app, int shard) {
        return "id.gen.idList_" + app + "_" + shard;
    }

    private static void pushLaggingList(StringRedisTemplate redis, int shard) {
        redis.delete(list(shard));
        redis.opsForList().rightPushAll(list(shard), LongStream.rangeClosed(1, 100).mapToObj(Long::toString)
                .toArray(String[]::new));
    }

    private static long watermark(int shard) {
        try (Connection connection = DATABASE.connect();
                PreparedStatement select = connection.prepareStatement("SELECT COALESCE(MAX(issued_high), 0) "
                        + "FROM leaf_shard_watermark WHERE app_id = ? AND shard_id = ?")) {
            select.setInt(1, APP);
            select.setInt(2, shard);
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long index(long id) {
        return ShardId.decode(id).index();
    }
}
