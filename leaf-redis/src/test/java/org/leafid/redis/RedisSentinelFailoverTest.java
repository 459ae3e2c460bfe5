package org.leafid.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.leafid.core.Sleeper;
import org.leafid.testing.RedisSentinelGroup;

/**
 * The shard buffer of two servers on a Redis master with one replica and three Sentinels of the
 * test's own, reached through the Sentinels. The replica is held behind (its stream cut), the
 * master killed under load, and the Sentinels promote the replica: its lists still hold indexes the
 * servers popped from the master. Every index served is collected; none may repeat.
 */
@Tag("full-fault-suite")
class RedisSentinelFailoverTest {

    private static final int APP = 9301;
    private static final int SHARDS = 2;

    private final MemoryShardStore store = new MemoryShardStore();
    private final MemoryIssuedWatermarks watermarks = new MemoryIssuedWatermarks();

    @Test
    @Timeout(120)
    void aFailoverToAReplicaThatLaggedRepeatsNoIndex() throws Exception {
        store.app(APP, SHARDS, 100, 0);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<long[]> taken = new ConcurrentLinkedQueue<>();
        List<TestRedis> connections = new ArrayList<>();
        long failoverMillis;
        try (RedisSentinelGroup redis = RedisSentinelGroup.start()) {
            List<Future<?>> workers = new ArrayList<>();
            for (int server = 0; server < 2; server++) {
                TestRedis connection = TestRedis.sentinel(RedisSentinelGroup.MASTER_NAME, redis.sentinelPorts());
                connections.add(connection);
                RedisShardIndexSource source = new RedisShardIndexSource(connection.template(), store, watermarks,
                        new StoreBlockFallback(store), new RedisBufferSettings(Duration.ofSeconds(60),
                                Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(1)),
                        InstantSource.system(), Sleeper.system());
                for (int t = 0; t < 2; t++) {
                    int shard = t % SHARDS;
                    workers.add(threads.submit(() -> {
                        List<Long> indexes = new ArrayList<>();
                        while (running.get()) {
                            indexes.add((long) shard << 40 | source.nextIndex(APP, shard));
                            Thread.sleep(0, 200_000);
                        }
                        taken.add(indexes.stream().mapToLong(Long::longValue).toArray());
                        return null;
                    }));
                }
            }
            Thread.sleep(2_000);
            redis.holdReplicaBehind();
            Thread.sleep(300);
            redis.killMaster();
            failoverMillis = redis.awaitFailover();
            Thread.sleep(4_000);
            running.set(false);
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS);
            }
        } finally {
            running.set(false);
            threads.shutdownNow();
            connections.forEach(TestRedis::close);
        }

        long[] all = taken.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        long repeats = 0;
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                repeats++;
            }
        }
        System.out.printf("[sentinel failover] %,d indexes, %d repeated; promoted after %,d ms%n", all.length, repeats,
                failoverMillis);
        assertThat(repeats).as("indexes served twice").isZero();
        assertThat(all.length).as("indexes served").isGreaterThan(1_000);
    }
}
