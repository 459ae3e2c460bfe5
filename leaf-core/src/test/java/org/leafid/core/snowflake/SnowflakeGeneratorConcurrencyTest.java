package org.leafid.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.leafid.core.Sleeper;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.testing.FixedWorkerIdHolder;

/** Many threads on one generator with the real clock: the lock-free state must never hand out an ID twice. */
class SnowflakeGeneratorConcurrencyTest {

    private static final int THREADS = 8;
    private static final int IDS_PER_THREAD = 250_000;

    @Test
    @Timeout(60)
    void eightThreadsIssueTwoMillionDistinctPositiveIds() throws Exception {
        SnowflakeGenerator generator = new SnowflakeGenerator(SnowflakeLayout.leafDefault(),
                FixedWorkerIdHolder.forever(3), InstantSource.system(), Sleeper.system(), new Random(7),
                Duration.ofMillis(5));
        // One array, one slice per thread: no boxing, no copy before the sort.
        long[] ids = new long[THREADS * IDS_PER_THREAD];
        CountDownLatch startGate = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int from = t * IDS_PER_THREAD;
                workers.add(pool.submit(() -> {
                    startGate.await();
                    long previous = -1;
                    for (int i = from; i < from + IDS_PER_THREAD; i++) {
                        ids[i] = generator.nextId();
                        // One caller sees its own IDs increase: the packed state only moves forward.
                        if (ids[i] <= previous) {
                            throw new AssertionError("ID " + ids[i] + " after " + previous + " in one thread");
                        }
                        previous = ids[i];
                    }
                    return null;
                }));
            }
            startGate.countDown();
            for (Future<?> worker : workers) {
                worker.get(50, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        Arrays.sort(ids);
        assertThat(ids[0]).isPositive();
        int duplicates = 0;
        for (int i = 1; i < ids.length; i++) {
            if (ids[i] == ids[i - 1]) {
                duplicates++;
            }
        }
        assertThat(duplicates).isZero();
        assertThat(ids).hasSize(THREADS * IDS_PER_THREAD);
        assertThat(generator.clockBackwardsEvents()).isZero();
    }

    @Test
    @Timeout(60)
    void closeWhileThreadsIssueReleasesAtOrAfterEveryIssuedId() throws Exception {
        FixedWorkerIdHolder holder = FixedWorkerIdHolder.forever(4);
        SnowflakeLayout layout = SnowflakeLayout.leafDefault();
        SnowflakeGenerator generator = new SnowflakeGenerator(layout, holder, InstantSource.system(),
                Sleeper.system(), new Random(9), Duration.ofMillis(5));
        int threads = 4;
        int capacity = 1_000_000;
        long[][] issued = new long[threads][capacity];
        int[] counts = new int[threads];
        AtomicInteger running = new AtomicInteger();
        CountDownLatch startGate = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                workers.add(pool.submit(() -> {
                    startGate.await();
                    int n = 0;
                    try {
                        while (n < capacity) {
                            issued[thread][n++] = generator.nextId();
                            if (n == 1_000) {
                                running.incrementAndGet();
                            }
                        }
                    } catch (WorkerIdUnavailableException closed) {
                        n--; // the slot taken for the refused call holds no ID
                    }
                    counts[thread] = n;
                    return null;
                }));
            }
            startGate.countDown();
            // Close while every thread is issuing: spin (bounded) until each has 1,000 IDs.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (running.get() < threads) {
                assertThat(System.nanoTime()).as("threads issuing").isLessThan(deadline);
                Thread.onSpinWait();
            }
            generator.close();
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        // Every ID handed out carries a time at or before the one the holder was released with:
        // a restart waiting past that time cannot repeat any of them.
        long released = holder.releasedAfterMillis();
        long newest = 0;
        for (int t = 0; t < threads; t++) {
            assertThat(counts[t]).as("IDs issued by thread %d before the close", t).isBetween(1_000, capacity - 1);
            for (int i = 0; i < counts[t]; i++) {
                newest = Math.max(newest, layout.decode(issued[t][i]).timestampMillis());
            }
        }
        assertThat(holder.releaseCount()).isEqualTo(1);
        assertThat(newest).isLessThanOrEqualTo(released);
    }
}
