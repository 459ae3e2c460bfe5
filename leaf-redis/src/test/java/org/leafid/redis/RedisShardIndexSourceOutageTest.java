package org.leafid.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.Sleeper;
import org.leafid.testing.FakeClock;
import org.leafid.testing.RedisServerProcess;

/**
 * The Redis buffer against a redis-server of the test's own, which it kills and restarts, and
 * where it may delete every list (the local Redis is shared).
 */
class RedisShardIndexSourceOutageTest {

    private static final int APP = 9201;
    private static final Duration RETRY = Duration.ofMillis(200);

    private final MemoryShardStore store = new MemoryShardStore().app(APP, 4, 100, 0);
    private final MemoryIssuedWatermarks watermarks = new MemoryIssuedWatermarks();
    private final List<TestRedis> connections = new ArrayList<>();
    private RedisServerProcess server;

    @BeforeEach
    void startRedis() throws Exception {
        server = RedisServerProcess.start();
    }

    @AfterEach
    void stopRedis() throws Exception {
        connections.forEach(TestRedis::close);
        server.close();
    }

    @Test
    void redisKilledUnderLoadAndRestartedIssuesNoDuplicateAndGoesBackToTheLists() throws Exception {
        StoreBlockFallback fallback1 = new StoreBlockFallback(store);
        StoreBlockFallback fallback2 = new StoreBlockFallback(store);
        RedisShardIndexSource[] sources = {source(fallback1, InstantSource.system(), Sleeper.system()),
                source(fallback2, InstantSource.system(), Sleeper.system())};
        Set<Long> issued = ConcurrentHashMap.newKeySet();
        AtomicLong total = new AtomicLong();
        AtomicLong slowestNanos = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> clients = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            RedisShardIndexSource source = sources[t % 2];
            clients.add(pool.submit(() -> {
                for (int i = 0; !stop.get(); i++) {
                    int shard = i % 4;
                    long start = System.nanoTime();
                    long index = source.nextIndex(APP, shard);
                    slowestNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
                    total.incrementAndGet();
                    if (!issued.add((long) shard << 40 | index)) {
                        throw new AssertionError("shard " + shard + " index " + index + " issued twice");
                    }
                }
                return null;
            }));
        }
        awaitCount(total, 5_000);
        server.kill();
        long atKill = total.get();
        awaitCount(total, atKill + 5_000);
        assertThat(sources[0].servingFromMemory() || sources[1].servingFromMemory()).isTrue();
        long fromMemoryBeforeRestart = fallback1.served() + fallback2.served();
        assertThat(fromMemoryBeforeRestart).isPositive();

        server.restart();
        Awaitility.await("both instances back on the lists").atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> !sources[0].servingFromMemory() && !sources[1].servingFromMemory());
        long fromMemoryAfterReturn = fallback1.served() + fallback2.served();
        awaitCount(total, total.get() + 5_000);
        stop.set(true);
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        for (Future<?> client : clients) {
            client.get(); // any exception of a client, or a duplicate, fails the test here
        }

        assertThat(issued).hasSize((int) total.get());
        // Back on the lists: the indexes after the return came from Redis, which was refilled after its restart.
        assertThat(fallback1.served() + fallback2.served()).isLessThan(fromMemoryAfterReturn + 100);
        assertThat(sources[0].listLength(APP, 0)).isPositive();
        // The bounded wait: a command timeout, plus a lock wait if a refill was cut short, never more.
        assertThat(Duration.ofNanos(slowestNanos.get())).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void redisDownIsTriedAgainAtMostOncePerRetryInterval() throws Exception {
        FakeClock clock = new FakeClock(1_000_000);
        StoreBlockFallback fallback = new StoreBlockFallback(store);
        RedisShardIndexSource source = source(fallback, clock, clock);
        long first = source.nextIndex(APP, 0);
        assertThat(fallback.served()).isZero();

        server.kill();
        long fromMemory = source.nextIndex(APP, 0);
        assertThat(source.servingFromMemory()).isTrue();
        assertThat(fallback.served()).isEqualTo(1);
        assertThat(fromMemory).isGreaterThan(first); // a block reserved after the list's: never reissued

        server.restart();
        // Redis answers again, but the retry interval has not passed on the injected clock: still memory.
        clock.advance(RETRY.toMillis() - 1);
        source.nextIndex(APP, 0);
        assertThat(source.servingFromMemory()).isTrue();
        assertThat(fallback.served()).isEqualTo(2);

        // Once per interval one call tries Redis; Lettuce reconnects in the background, so allow a few intervals.
        Awaitility.await("back on the lists").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20))
                .pollInSameThread() // it moves the fake clock and calls the source, as the test thread would
                .until(() -> {
                    clock.advance(RETRY);
                    source.nextIndex(APP, 0);
                    return !source.servingFromMemory();
                });
        long servedBefore = fallback.served();
        source.nextIndex(APP, 0);
        assertThat(fallback.served()).isEqualTo(servedBefore);
        assertThat(source.listLength(APP, 0)).isPositive();
    }

    @Test
    void listsOfAppsRemovedFromTheTableAreDeleted() throws Exception {
        TestRedis redis = connect();
        awaitConnected(redis);
        for (int app : new int[] {1, 2, 3}) {
            for (int shard = 0; shard < 64; shard++) {
                redis.template().opsForList().rightPush(ShardListKeys.list(app, shard), "7");
            }
        }
        redis.template().opsForList().rightPush("id.gen.idList_notAnApp", "x");
        redis.template().opsForValue().set("something.else", "y");
        RedisShardIndexSource source = source(new StoreBlockFallback(store), InstantSource.system(),
                Sleeper.system());

        int deleted = source.removeListsOfAppsOtherThan(Set.of(2, 4));

        assertThat(deleted).isEqualTo(128);
        assertThat(redis.template().keys("*")).containsExactlyInAnyOrderElementsOf(keysOfApp2AndOthers());
    }

    private static List<String> keysOfApp2AndOthers() {
        List<String> keys = new ArrayList<>(List.of("id.gen.idList_notAnApp", "something.else"));
        for (int shard = 0; shard < 64; shard++) {
            keys.add(ShardListKeys.list(2, shard));
        }
        return keys;
    }

    private RedisShardIndexSource source(StoreBlockFallback fallback, InstantSource clock, Sleeper sleeper) {
        RedisBufferSettings settings = new RedisBufferSettings(Duration.ofSeconds(60), Duration.ofSeconds(1), RETRY,
                Duration.ofSeconds(1));
        return new RedisShardIndexSource(connect().template(), store, watermarks, fallback, settings, clock, sleeper);
    }

    private TestRedis connect() {
        TestRedis redis = new TestRedis(server.port());
        connections.add(redis);
        return redis;
    }

    /**
     * Commands are refused while the connection is not up (the bounded waits of these tests); on a
     * loaded machine the first connection to a fresh redis-server can take seconds: wait for it.
     */
    private static void awaitConnected(TestRedis redis) {
        Awaitility.await("connected to redis-server").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> redis.template().hasKey("ping") != null);
    }

    private static void awaitCount(AtomicLong total, long target) {
        Awaitility.await(target + " IDs").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                .until(() -> total.get() >= target);
    }
}
