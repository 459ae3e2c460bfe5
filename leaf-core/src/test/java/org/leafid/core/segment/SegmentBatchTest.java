package org.leafid.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.leafid.testing.FakeClock;
import org.leafid.testing.InMemorySegmentStore;

/** Batches of segment IDs, the issued count and the listeners metrics hang on. */
class SegmentBatchTest {

    private static final String TAG = "batch";

    private final FakeClock clock = new FakeClock(1_700_000_000_000L);
    private final InMemorySegmentStore store = new InMemorySegmentStore();
    private final ExecutorService loader = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopLoader() {
        loader.shutdownNow();
    }

    @Test
    void batchIsContiguousWithinABlockAndGoesOnIntoTheNext() {
        store.put(TAG, 1, 10);
        SegmentIdGenerator generator = generator(SegmentLoadListener.NONE);

        long[] first = generator.nextIds(7);
        long[] spanning = generator.nextIds(7); // 8..10 from block one, 11..14 from block two
        long[] large = generator.nextIds(25); // several blocks

        assertThat(first).containsExactly(1, 2, 3, 4, 5, 6, 7);
        assertThat(spanning).containsExactly(8, 9, 10, 11, 12, 13, 14);
        assertThat(large).hasSize(25).isSorted().doesNotHaveDuplicates();
        assertThat(large[0]).isGreaterThan(14);
        assertThat(generator.nextId()).isGreaterThan(large[24]);
    }

    @Test
    void batchCrossingTheTenPercentMarkStartsExactlyOnePreload() {
        store.put(TAG, 1, 100);
        SegmentIdGenerator generator = generator(SegmentLoadListener.NONE);
        generator.nextId(); // first block loaded: reservation 1

        generator.nextIds(30); // covers offset 10, the 10 % mark

        await(() -> store.reserveCount(TAG) == 2);
        generator.nextIds(30);
        assertThat(store.reserveCount(TAG)).isEqualTo(2);
    }

    @Test
    void invalidCountIsRefused() {
        store.put(TAG, 1, 10);
        SegmentIdGenerator generator = generator(SegmentLoadListener.NONE);

        assertThatThrownBy(() -> generator.nextIds(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> generator.nextIds(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void concurrentBatchesAndSinglesNeverOverlap() throws Exception {
        store.put(TAG, 1, 1_000);
        SegmentIdGenerator generator = generator(SegmentLoadListener.NONE);
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int batch = t % 2 == 0 ? 1 : 97; // singles and batches that straddle block ends
                results.add(callers.submit(() -> {
                    go.await();
                    long[] ids = new long[50_000];
                    for (int filled = 0; filled < ids.length;) {
                        long[] got = batch == 1 ? new long[] {generator.nextId()} : generator.nextIds(batch);
                        assertThat(got).isSorted();
                        int take = Math.min(got.length, ids.length - filled);
                        System.arraycopy(got, 0, ids, filled, take);
                        filled += take;
                    }
                    return ids;
                }));
            }
            go.countDown();
            long[] all = new long[0];
            for (Future<long[]> result : results) {
                long[] ids = result.get(60, TimeUnit.SECONDS);
                long[] merged = Arrays.copyOf(all, all.length + ids.length);
                System.arraycopy(ids, 0, merged, all.length, ids.length);
                all = merged;
            }
            Arrays.sort(all);
            for (int i = 1; i < all.length; i++) {
                assertThat(all[i]).as("duplicate at %d", i).isGreaterThan(all[i - 1]);
            }
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void issuedCountFollowsSinglesAndBatchesAcrossSwitches() {
        store.put(TAG, 1, 10);
        SegmentIdGenerator generator = generator(SegmentLoadListener.NONE);
        assertThat(generator.issuedCount()).isZero();

        generator.nextId();
        generator.nextIds(23);

        assertThat(generator.issuedCount()).isEqualTo(24);
    }

    @Test
    void loadListenerHearsSuccessesAndFailures() {
        store.put(TAG, 1, 10);
        AtomicInteger loaded = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        SegmentIdGenerator generator = generator(new SegmentLoadListener() {
            @Override
            public void loaded(String tag, Duration took, long size) {
                assertThat(size).isPositive();
                loaded.incrementAndGet();
            }

            @Override
            public void failed(String tag, Duration took, RuntimeException cause) {
                failed.incrementAndGet();
            }
        });
        generator.nextIds(2); // loads block one; offset 1 is its 10 % mark: preload of block two
        await(() -> loaded.get() == 2);
        store.failReserves(true);
        generator.nextIds(8); // spends block one
        generator.nextIds(10); // spends block two; its preload of block three fails

        await(() -> failed.get() >= 1);
        assertThat(generator.view().lastLoadFailure()).isNotNull();
        assertThat(loaded.get()).isEqualTo(2);
    }

    @Test
    void allocatorTellsTheTagListenerWhatARefreshChanged() {
        store.put("a", 1, 10).put("b", 1, 10);
        List<String> events = new ArrayList<>();
        SegmentAllocator allocator = new SegmentAllocator(store, new SegmentSettings(StepPolicy.leafDefault(),
                Duration.ofSeconds(1)), clock, loader, new SegmentTagListener() {
                    @Override
                    public void tagAdded(SegmentIdGenerator generator) {
                        events.add("+" + generator.tag());
                    }

                    @Override
                    public void tagRemoved(String tag) {
                        events.add("-" + tag);
                    }
                });
        allocator.refresh();
        store.remove("a");
        allocator.refresh();

        assertThat(events).containsExactlyInAnyOrder("+a", "+b", "-a");
        assertThat(allocator.nextIds("b", 3)).containsExactly(1, 2, 3);
    }

    private SegmentIdGenerator generator(SegmentLoadListener listener) {
        return new SegmentIdGenerator(TAG, store, StepPolicy.leafDefault(), clock, loader, Duration.ofSeconds(5),
                listener);
    }

    /** The loader is a real thread: wait for it, bounded. */
    private static void await(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.onSpinWait();
        }
    }
}
