package org.leafid.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.Sleeper;
import org.leafid.testing.FakeClock;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The Redis buffer against the local Redis (127.0.0.1:6379) with the keys of the Redis-queue
 * services. Each test uses its own app ids, far from real ones, and deletes their keys afterwards.
 */
class RedisShardIndexSourceTest {

    private static final Duration WATERMARK_INTERVAL = Duration.ofSeconds(1);

    private final List<TestRedis> connections = new ArrayList<>();
    private final Set<Integer> appIds = new HashSet<>();
    private final MemoryShardStore store = new MemoryShardStore();
    private final MemoryIssuedWatermarks watermarks = new MemoryIssuedWatermarks();

    @AfterEach
    void deleteKeysAndClose() {
        StringRedisTemplate redis = connect();
        for (int appId : appIds) {
            for (int shard = 0; shard < 64; shard++) {
                redis.delete(List.of(ShardListKeys.list(appId, shard), ShardListKeys.lock(appId, shard),
                        ShardListKeys.guard(ShardListKeys.list(appId, shard))));
            }
        }
        connections.forEach(TestRedis::close);
    }

    @Test
    void twoInstancesSharingOneRedisIssueNoDuplicateAndLoseNoIndex() throws Exception {
        int app = app(9101);
        int shards = 4;
        int step = 50;
        store.app(app, shards, step, 0);
        StoreBlockFallback fallback1 = new StoreBlockFallback(store);
        StoreBlockFallback fallback2 = new StoreBlockFallback(store);
        RedisShardIndexSource[] sources = {realTimeSource(fallback1), realTimeSource(fallback2)};
        int threads = 8;
        int callsPerThread = 3_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<List<Long>>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            RedisShardIndexSource source = sources[t % 2];
            results.add(pool.submit(() -> {
                List<Long> issued = new ArrayList<>();
                for (int i = 0; i < callsPerThread; i++) {
                    int shard = i % shards;
                    long[] indexes = i % 10 == 0 ? source.nextIndexes(app, shard, 5)
                            : new long[] {source.nextIndex(app, shard)};
                    for (long index : indexes) {
                        issued.add((long) shard << 40 | index);
                    }
                }
                return issued;
            }));
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(120, TimeUnit.SECONDS)).isTrue();
        Set<Long> unique = new HashSet<>();
        long total = 0;
        for (Future<List<Long>> result : results) {
            List<Long> issued = result.get();
            total += issued.size();
            unique.addAll(issued);
        }
        long expected = (long) threads * (callsPerThread / 10 * 5 + callsPerThread / 10 * 9);
        assertThat(total).isEqualTo(expected);
        assertThat(unique).hasSize((int) expected);
        assertThat(fallback1.served() + fallback2.served()).as("served from memory").isZero();
        // Every reserved index was either issued or is still in a list: refills under the lock never
        // pushed a block twice nor lost one, and each list stays within 1.2 steps.
        long left = 0;
        for (int shard = 0; shard < shards; shard++) {
            long length = sources[0].listLength(app, shard);
            assertThat(length).isLessThanOrEqualTo(step + step / 5);
            left += length;
        }
        assertThat(store.reservedIndexes()).isEqualTo(total + left);
    }

    @Test
    void listLeftByTheirServiceIsServedAsItIsThenRefilledFromTheStore() {
        int app = app(9102);
        // Their service reserved 1..500 and issued 1..300: the list holds 301..500.
        store.app(app, 1, 200, 500);
        connect().opsForList().rightPushAll(ShardListKeys.list(app, 0),
                LongStream.rangeClosed(301, 500).mapToObj(Long::toString).toList());
        RedisShardIndexSource source = realTimeSource(new StoreBlockFallback(store));

        long[] first = source.nextIndexes(app, 0, 150);
        List<Long> issued = new ArrayList<>(asList(first));
        for (int i = 0; i < 100; i++) {
            issued.add(source.nextIndex(app, 0));
        }

        assertThat(issued).containsExactlyElementsOf(LongStream.rangeClosed(301, 550).boxed().toList());
        assertThat(store.maxId(app, 0)).isEqualTo(700);
    }

    @Test
    void laggingReplicaListIsCaughtAndNothingIsReissued() {
        int app = app(9103);
        store.app(app, 1, 100, 0);
        FakeClock clock = new FakeClock(1_000_000);
        StoreBlockFallback fallback = new StoreBlockFallback(store);
        RedisShardIndexSource first = source(fallback, clock, clock, Duration.ofSeconds(1));
        Set<Long> issued = new HashSet<>();
        for (int i = 0; i < 250; i++) {
            assertThat(issued.add(first.nextIndex(app, 0))).isTrue();
        }
        // The interval passes: the next call writes 250 as the watermark before it pops 251.
        clock.advance(WATERMARK_INTERVAL);
        assertThat(issued.add(first.nextIndex(app, 0))).isTrue();
        assertThat(watermarks.highest(app, 0)).isEqualTo(250);

        // A replica promoted while it lagged: 200..251, already issued, are back at the head of the list.
        pushBackAtHead(app, 200, 251);
        RedisShardIndexSource second = source(new StoreBlockFallback(store), clock, clock, Duration.ofSeconds(1));
        for (int i = 0; i < 100; i++) {
            long index = second.nextIndex(app, 0);
            assertThat(issued.add(index)).as("index %d issued twice", index).isTrue();
        }

        // Again, caught this time by the first instance's own highest popped index (251), not the watermark.
        pushBackAtHead(app, 240, 251);
        for (int i = 0; i < 100; i++) {
            long index = first.nextIndex(app, 0);
            assertThat(issued.add(index)).as("index %d issued twice", index).isTrue();
        }
        assertThat(issued).hasSize(451);
        assertThat(fallback.served()).as("served from memory").isZero();
    }

    /**
     * The case the shared watermark alone missed: a list put back at once, while the other instance's
     * pops were not synced yet (a Sentinel failover to a replica 100 ms behind, or a restored list).
     * The highest index popped, kept beside the list and checked in the pop itself, catches it.
     */
    @Test
    void aListPutBackIsCaughtByAnInstanceThatNeverLearnedTheOthersPops() {
        int app = app(9104);
        store.app(app, 1, 100, 0);
        FakeClock clock = new FakeClock(1_000_000);
        RedisShardIndexSource first = source(new StoreBlockFallback(store), clock, clock, Duration.ofSeconds(1));
        Set<Long> issued = new HashSet<>();
        for (int i = 0; i < 150; i++) {
            assertThat(issued.add(first.nextIndex(app, 0))).isTrue();
        }
        assertThat(watermarks.highest(app, 0)).as("the shared watermark, not synced since").isLessThan(150);

        pushBackAtHead(app, 101, 150);
        RedisShardIndexSource second = source(new StoreBlockFallback(store), clock, clock, Duration.ofSeconds(1));
        for (int i = 0; i < 100; i++) {
            long index = second.nextIndex(app, 0);
            assertThat(issued.add(index)).as("index %d issued twice", index).isTrue();
        }
        assertThat(issued).hasSize(250);
    }

    private void pushBackAtHead(int app, long from, long to) {
        // LPUSH puts each value in front of the previous one: push in descending order to leave from..to at the head.
        connect().opsForList().leftPushAll(ShardListKeys.list(app, 0),
                LongStream.rangeClosed(from, to).map(i -> to - (i - from)).mapToObj(Long::toString).toList());
    }

    private RedisShardIndexSource realTimeSource(StoreBlockFallback fallback) {
        return source(fallback, InstantSource.system(), Sleeper.system(), Duration.ofSeconds(5));
    }

    private RedisShardIndexSource source(StoreBlockFallback fallback, InstantSource clock, Sleeper sleeper,
            Duration lockWait) {
        RedisBufferSettings settings = new RedisBufferSettings(Duration.ofSeconds(60), lockWait,
                Duration.ofSeconds(5), WATERMARK_INTERVAL);
        return new RedisShardIndexSource(connect(), store, watermarks, fallback, settings, clock, sleeper);
    }

    private StringRedisTemplate connect() {
        TestRedis redis = new TestRedis(TestRedis.LOCAL_PORT);
        connections.add(redis);
        return redis.template();
    }

    private int app(int appId) {
        appIds.add(appId);
        connect().delete(List.of(ShardListKeys.list(appId, 0)));
        return appId;
    }

    static List<Long> asList(long[] values) {
        return LongStream.of(values).boxed().toList();
    }
}
