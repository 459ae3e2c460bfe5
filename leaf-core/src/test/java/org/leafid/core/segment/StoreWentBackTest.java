package org.leafid.core.segment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.leafid.testing.InMemorySegmentStore;

/**
 * A store that goes back (max_id set back together with its mark, a restored backup, a failover to
 * a replica that lagged) never makes a generator serve a number it served before: the part of a
 * block below what it reserved is skipped, and a row wholly behind is carried past in one more
 * reservation.
 */
class StoreWentBackTest {

    private static final int STEP = 100;

    @Test
    void aRowSetBackBelowServedBlocksIsSkippedNotServedAgain() {
        InMemorySegmentStore store = new InMemorySegmentStore().put("orders", 0, STEP);
        SegmentIdGenerator generator = generator(store, Runnable::run);
        Set<Long> served = new HashSet<>();
        for (int i = 0; i < 250; i++) {
            assertThat(served.add(generator.nextId())).isTrue();
        }
        long highest = store.maxId("orders");

        store.put("orders", 0, STEP); // the operator's "repair": max_id back to 0, its mark with it
        for (int i = 0; i < 1_000; i++) {
            long id = generator.nextId();
            assertThat(served.add(id)).as("id %d served twice", id).isTrue();
        }
        assertThat(served).hasSize(1_250);
        assertThat(store.maxId("orders")).as("max_id carried past what was served").isGreaterThan(highest);
    }

    /**
     * Two servers, the row set back 6 blocks: below what each server reserved, so the one that
     * reserves next sees it, but that server has not seen the other's newest blocks. It leaves a
     * margin above its own end unused, so it does not serve the other's numbers again. (A set-back
     * that stays above a server's own end, within the blocks the others reserved since its last
     * reservation, is not seen by it: docs/segment.md says so.)
     */
    @Test
    void aRowSetBackBetweenTwoServersLastBlocksRepeatsNeitherServersNumbers() {
        InMemorySegmentStore store = new InMemorySegmentStore().put("orders", 0, STEP);
        SegmentIdGenerator first = generator(store, Runnable::run);
        SegmentIdGenerator second = generator(store, Runnable::run);
        Set<Long> served = new HashSet<>();
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 150; i++) {
                assertThat(served.add(second.nextId())).isTrue();
            }
            for (int i = 0; i < 150; i++) {
                assertThat(served.add(first.nextId())).isTrue();
            }
        }
        long highest = store.maxId("orders");
        store.put("orders", highest - 6 * STEP, STEP);
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 300; i++) {
                long id = second.nextId();
                assertThat(served.add(id)).as("id %d served twice", id).isTrue();
            }
            for (int i = 0; i < 300; i++) {
                long id = first.nextId();
                assertThat(served.add(id)).as("id %d served twice", id).isTrue();
            }
        }
        assertThat(served).hasSize(4_500);
    }

    @Test
    @Timeout(60)
    void fourThreadsWhileTheRowIsSetBackAgainAndAgainRepeatNothing() throws Exception {
        InMemorySegmentStore store = new InMemorySegmentStore().put("orders", 0, STEP);
        ExecutorService loader = Executors.newFixedThreadPool(2);
        ExecutorService callers = Executors.newFixedThreadPool(5);
        SegmentIdGenerator generator = generator(store, loader);
        ConcurrentLinkedQueue<long[]> taken = new ConcurrentLinkedQueue<>();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong refusals = new AtomicLong();
        try {
            Future<?> setBack = callers.submit(() -> {
                while (running.get()) {
                    long max = store.maxId("orders");
                    store.put("orders", Math.max(0, max - 7 * STEP), STEP); // back by up to 7 blocks
                    Thread.sleep(2);
                }
                return null;
            });
            List<Future<?>> workers = IntStream.range(0, 4).<Future<?>>mapToObj(t -> callers.submit(() -> {
                long[] ids = new long[200_000];
                for (int i = 0; i < ids.length; i++) {
                    try {
                        ids[i] = generator.nextId();
                    } catch (SegmentStoreException refused) {
                        // The row went back faster than a load could carry it past: refused, not served.
                        refusals.incrementAndGet();
                        i--;
                    }
                }
                taken.add(ids);
                return null;
            })).toList();
            for (Future<?> worker : workers) {
                worker.get(50, TimeUnit.SECONDS);
            }
            running.set(false);
            setBack.get(10, TimeUnit.SECONDS);
        } finally {
            callers.shutdownNow();
            loader.shutdownNow();
        }

        Set<Long> unique = new HashSet<>();
        long repeats = taken.stream().flatMapToLong(java.util.Arrays::stream).filter(id -> !unique.add(id)).count();
        assertThat(repeats).as("IDs served twice").isZero();
        assertThat(unique).hasSize(800_000);
        System.out.println("[store went back] 800,000 IDs, " + refusals.get() + " loads refused");
    }

    private static SegmentIdGenerator generator(InMemorySegmentStore store, java.util.concurrent.Executor loader) {
        return new SegmentIdGenerator("orders", store, new StepPolicy(STEP, Duration.ofMinutes(15)),
                InstantSource.system(), loader, Duration.ofSeconds(10));
    }
}
