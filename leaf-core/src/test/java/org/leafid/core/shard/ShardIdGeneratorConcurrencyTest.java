package org.leafid.core.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leafid.core.testing.InMemoryShardStore;

/** Many threads on one app through the real double buffer and a loader pool, plain and opaque. */
class ShardIdGeneratorConcurrencyTest {

    private static final int THREADS = 8;
    private static final int IDS_PER_THREAD = 100_000;
    private static final long LIMIT = 1L << 32;
    private static final String KEY = "8f4c2a1e9b7d6c5a4f3e2d1c0b9a8776";

    @ParameterizedTest(name = "opaque={0}")
    @ValueSource(booleans = {false, true})
    @Timeout(120)
    void eightThreadsTakeEightHundredThousandIdsWithNoDuplicateAllBelowTheLimitInTheirShards(boolean opaque)
            throws Exception {
        InMemoryShardStore store = new InMemoryShardStore().createApp(42, "orders", 500, LIMIT);
        long[] ids = new long[THREADS * IDS_PER_THREAD];
        String[] gatePasses = new String[ids.length];
        run(store, opaque, (generator, thread) -> {
            int from = thread * IDS_PER_THREAD;
            for (int i = from; i < from + IDS_PER_THREAD; i++) {
                // Every 8th call round-robin; the rest over 500 users, so shards are shared by threads.
                String gatePass = i % 8 == 0 ? null : "user-" + (i % 500) + "@example.com";
                gatePasses[i] = gatePass;
                if (i % 100 == 0) {
                    long[] batch = generator.nextIds(42, gatePass, 1);
                    ids[i] = batch[0];
                } else {
                    ids[i] = generator.nextId(42, gatePass);
                }
            }
        });
        for (int i = 0; i < ids.length; i++) {
            ShardId parts = ShardId.decode(ids[i]);
            assertThat(ids[i]).isLessThan(LIMIT);
            assertThat(parts.appId()).isEqualTo(42);
            if (gatePasses[i] != null) {
                assertThat(parts.shardId()).isEqualTo(ShardId.shardOf(gatePasses[i]));
            }
        }
        assertNoDuplicate(ids);
    }

    @ParameterizedTest(name = "opaque={0}")
    @ValueSource(booleans = {false, true})
    @Timeout(120)
    void atTheLimitEightThreadsGetEveryIndexOnceThenOnlyRefusals(boolean opaque) throws Exception {
        long limit = (200L << 14) + 1; // 200 indexes in shard 0 of app 0, 199 in every other (app, shard)
        InMemoryShardStore store = new InMemoryShardStore().createApp(7, "small", 30, limit);
        long expected = 0;
        for (int shard = 0; shard < 64; shard++) {
            expected += new ShardLimit(7, limit).maxIndex(shard);
        }
        long[] ids = new long[(int) expected + 1];
        AtomicLong filled = new AtomicLong();
        AtomicLong refusals = new AtomicLong();
        run(store, opaque, (generator, thread) -> {
            int refusedInARow = 0;
            for (int call = 0; refusedInARow < 50; call++) {
                String gatePass = thread % 2 == 0 ? null : "u" + (call % 300);
                try {
                    long id = generator.nextId(7, gatePass);
                    ids[(int) filled.getAndIncrement()] = id; // one more than possible would fail here
                    assertThat(id).isLessThan(limit);
                    refusedInARow = 0;
                } catch (AppLimitReachedException e) {
                    refusals.incrementAndGet();
                    refusedInARow++;
                }
            }
        });
        assertThat(filled.get()).isEqualTo(expected); // every index below the limit, none past it
        assertThat(refusals.get()).isGreaterThanOrEqualTo(THREADS * 50L);
        assertNoDuplicate(Arrays.copyOf(ids, (int) expected));
    }

    @Test
    void theBatchPathOfManyThreadsHasNoDuplicateEither() throws Exception {
        InMemoryShardStore store = new InMemoryShardStore().createApp(1, "batch", 97, 0);
        long[][] batches = new long[THREADS * 2_000][];
        run(store, false, (generator, thread) -> {
            for (int i = thread * 2_000; i < (thread + 1) * 2_000; i++) {
                batches[i] = generator.nextIds(1, i % 3 == 0 ? null : "g" + (i % 7), 1 + i % 50);
            }
        });
        assertNoDuplicate(Arrays.stream(batches).flatMapToLong(Arrays::stream).toArray());
    }

    private interface Worker {
        void run(ShardIdGenerator generator, int thread) throws Exception;
    }

    private static void run(InMemoryShardStore store, boolean opaque, Worker worker) throws Exception {
        ExecutorService loader = Executors.newFixedThreadPool(2);
        ExecutorService callers = Executors.newFixedThreadPool(THREADS);
        try {
            MemoryShardIndexSource source = new MemoryShardIndexSource(store, InstantSource.system(), loader,
                    Duration.ofSeconds(10));
            ShardAppDirectory directory = new ShardAppDirectory(store);
            directory.update(source.refresh());
            ShardIdGenerator generator = new ShardIdGenerator(directory::app, source,
                    opaque ? OpaquePermutation.fromKeyText(KEY) : null);
            CountDownLatch startGate = new CountDownLatch(1);
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                workers.add(callers.submit(() -> {
                    startGate.await();
                    worker.run(generator, thread);
                    return null;
                }));
            }
            startGate.countDown();
            for (Future<?> future : workers) {
                future.get(100, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
            loader.shutdownNow();
        }
    }

    private static void assertNoDuplicate(long[] ids) {
        long[] sorted = ids.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            assertThat(sorted[i]).as("duplicate ID").isNotEqualTo(sorted[i - 1]);
        }
        assertThat(sorted[0]).isPositive();
    }
}
