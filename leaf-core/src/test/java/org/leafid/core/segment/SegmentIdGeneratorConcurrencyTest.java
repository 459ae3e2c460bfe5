package org.leafid.core.segment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.leafid.testing.InMemorySegmentStore;

/** Many threads on one tag across hundreds of block switches, with a real loader pool. */
class SegmentIdGeneratorConcurrencyTest {

    private static final int THREADS = 8;
    private static final int IDS_PER_THREAD = 1_000_000;
    private static final int STEP = 10_000;

    @Test
    @Timeout(60)
    void eightThreadsTakeEightMillionIdsWithNoDuplicateAndNoGap() throws Exception {
        InMemorySegmentStore store = new InMemorySegmentStore().put("orders", 1, STEP);
        ExecutorService loader = Executors.newFixedThreadPool(2);
        ExecutorService callers = Executors.newFixedThreadPool(THREADS);
        // maxStep = STEP keeps every block at 10,000: 800 switches instead of a few doublings.
        SegmentIdGenerator generator = new SegmentIdGenerator("orders", store,
                new StepPolicy(STEP, Duration.ofMinutes(15)), InstantSource.system(), loader, Duration.ofSeconds(10));
        long[] ids = new long[THREADS * IDS_PER_THREAD];
        CountDownLatch startGate = new CountDownLatch(1);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int from = t * IDS_PER_THREAD;
                workers.add(callers.submit(() -> {
                    startGate.await();
                    for (int i = from; i < from + IDS_PER_THREAD; i++) {
                        ids[i] = generator.nextId();
                    }
                    return null;
                }));
            }
            startGate.countDown();
            for (Future<?> worker : workers) {
                worker.get(50, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
            loader.shutdownNow();
        }

        // Blocks are contiguous and each one is used up before the switch, so with nothing
        // failing the IDs are exactly 1 .. 8,000,000.
        Arrays.sort(ids);
        int firstMismatch = -1;
        for (int i = 0; i < ids.length && firstMismatch < 0; i++) {
            if (ids[i] != i + 1) {
                firstMismatch = i;
            }
        }
        assertThat(firstMismatch).as("first position where the sorted IDs leave 1..%d", ids.length).isEqualTo(-1);
        // 800 blocks served, and perhaps the 801st preloaded.
        assertThat(store.reserveCount("orders")).isBetween(800, 801);
    }

    /**
     * Ranges, batches and single IDs taken at once, in batches of sizes that do not divide the
     * blocks: every range adds up to what was asked, and together they are exactly 1 .. N.
     */
    @Test
    @Timeout(60)
    void rangesBatchesAndSingleIdsTakenAtOnceCoverEveryIdOnce() throws Exception {
        InMemorySegmentStore store = new InMemorySegmentStore().put("orders", 1, 1_000);
        ExecutorService loader = Executors.newFixedThreadPool(2);
        ExecutorService callers = Executors.newFixedThreadPool(THREADS);
        SegmentIdGenerator generator = new SegmentIdGenerator("orders", store,
                new StepPolicy(1_000, Duration.ofMinutes(15)), InstantSource.system(), loader, Duration.ofSeconds(10));
        int rounds = 2_000;
        List<long[]> taken = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch startGate = new CountDownLatch(1);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                workers.add(callers.submit(() -> {
                    startGate.await();
                    for (int round = 0; round < rounds; round++) {
                        int size = 1 + (round * 37 + thread * 101) % 700;
                        switch ((round + thread) % 3) {
                            case 0 -> {
                                IdRanges ranges = generator.nextRanges(size);
                                assertThat(ranges.count()).isEqualTo(size);
                                long[] ids = ranges.toArray();
                                for (int i = 1; i < ids.length; i++) {
                                    assertThat(ids[i]).as("IDs of one range answer increase").isGreaterThan(ids[i - 1]);
                                }
                                taken.add(ids);
                            }
                            case 1 -> taken.add(generator.nextIds(size));
                            default -> taken.add(new long[] {generator.nextId()});
                        }
                    }
                    return null;
                }));
            }
            startGate.countDown();
            for (Future<?> worker : workers) {
                worker.get(50, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
            loader.shutdownNow();
        }

        long[] all = taken.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        int firstMismatch = -1;
        for (int i = 0; i < all.length && firstMismatch < 0; i++) {
            if (all[i] != i + 1) {
                firstMismatch = i;
            }
        }
        assertThat(firstMismatch).as("first position where the sorted IDs leave 1..%d (a repeat or a gap)", all.length)
                .isEqualTo(-1);
    }
}
