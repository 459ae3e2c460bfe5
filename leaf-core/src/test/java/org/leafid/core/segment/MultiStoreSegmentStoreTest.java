package org.leafid.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.leafid.testing.InMemoryStripedStore;

/** Several stores behind one: the first that answers gives the block, above what the server served. */
class MultiStoreSegmentStoreTest {

    private static final long WIDTH = 10_000;

    private final List<InMemoryStripedStore> stores = List.of(store(0), store(1), store(2));
    private final List<MultiStoreSegmentStore> opened = new ArrayList<>();
    private final ExecutorService loader = Executors.newFixedThreadPool(2);

    private static InMemoryStripedStore store(int index) {
        return new InMemoryStripedStore(new Stripes(1, WIDTH, 3, index)).put("orders", 1, 1_000);
    }

    private MultiStoreSegmentStore multi() {
        List<MultiStoreSegmentStore.Store> named = new ArrayList<>();
        for (int k = 0; k < stores.size(); k++) {
            named.add(new MultiStoreSegmentStore.Store("stores[" + k + "]", "memory " + k, stores.get(k)));
        }
        return multi(named, Duration.ZERO);
    }

    private MultiStoreSegmentStore multi(List<MultiStoreSegmentStore.Store> named, Duration warmUp) {
        MultiStoreSegmentStore multi = new MultiStoreSegmentStore(named, Duration.ofMillis(200), Duration.ofMillis(50),
                warmUp, InstantSource.system());
        opened.add(multi);
        return multi;
    }

    @AfterEach
    void close() {
        stores.forEach(store -> store.stallUntil(null));
        opened.forEach(MultiStoreSegmentStore::close);
        loader.shutdownNow();
    }

    private int owner(long id) {
        for (int k = 0; k < stores.size(); k++) {
            if (stores.get(k).stripes().owns(id)) {
                return k;
            }
        }
        return -1;
    }

    @Test
    void theFirstStoreGivesTheBlocksWhileItAnswers() {
        MultiStoreSegmentStore multi = multi();
        AllocRow first = multi.reserveFrom("orders", 1, Long.MIN_VALUE);
        AllocRow second = multi.reserveFrom("orders", 1, first.maxId());
        assertThat(owner(first.maxId() - 1)).isZero();
        assertThat(second.maxId() - 1_000).isEqualTo(first.maxId());
        assertThat(multi.status()).extracting(MultiStoreSegmentStore.StoreStatus::blocks).containsExactly(2L, 0L, 0L);
    }

    @Test
    void aStoreDownIsSkippedAndTheNextBlockStartsAboveWhatWasServed() {
        MultiStoreSegmentStore multi = multi();
        AllocRow first = multi.reserveFrom("orders", 1, Long.MIN_VALUE);
        stores.get(0).down(true);
        AllocRow fromSecond = multi.reserveFrom("orders", 1, first.maxId());
        assertThat(owner(fromSecond.maxId() - 1)).isEqualTo(1);
        assertThat(fromSecond.maxId() - 1_000).isGreaterThanOrEqualTo(first.maxId());
        assertThat(multi.status().get(0).up()).isFalse();
        assertThat(multi.status().get(0).lastFailure()).contains("store is down");

        stores.get(0).down(false);
        await().atMost(Duration.ofSeconds(5)).until(() -> multi.status().get(0).up());
        AllocRow back = multi.reserveFrom("orders", 1, fromSecond.maxId());
        assertThat(owner(back.maxId() - 1)).isZero();
        assertThat(back.maxId() - 1_000).as("store 0 pushed above store 1's block, never read back")
                .isGreaterThanOrEqualTo(fromSecond.maxId());
    }

    /**
     * Stores that bound their own calls are asked on the caller's thread while steadily up (no
     * hand-off); a failure still marks the store down and the next one gives the block, and every
     * block starts above the last, none met twice.
     */
    @Test
    void storesThatBoundThemselvesAreAskedOnTheCallersThreadAndStillFailOver() {
        List<String> threads = new ArrayList<>();
        List<MultiStoreSegmentStore.Store> named = new ArrayList<>();
        for (int k = 0; k < stores.size(); k++) {
            InMemoryStripedStore store = stores.get(k);
            named.add(new MultiStoreSegmentStore.Store("stores[" + k + "]", "memory " + k, new FloorSegmentStore() {
                @Override
                public AllocRow reserveFrom(String tag, long requestedStep, long from) {
                    threads.add(Thread.currentThread().getName());
                    return store.reserveFrom(tag, requestedStep, from);
                }

                @Override
                public List<String> tags() {
                    return store.tags();
                }
            }));
        }
        MultiStoreSegmentStore multi = new MultiStoreSegmentStore(named, Duration.ofMillis(200),
                MultiStoreSegmentStore.Bound.STORE, Duration.ofMillis(50), Duration.ofSeconds(10),
                InstantSource.system());
        opened.add(multi);
        Set<Long> issued = new HashSet<>();
        long floor = Long.MIN_VALUE;
        for (int i = 0; i < 6; i++) {
            if (i == 3) {
                stores.get(0).down(true);
            }
            AllocRow row = multi.reserveFrom("orders", 1, floor);
            assertThat(row.maxId() - row.step()).isGreaterThanOrEqualTo(floor);
            for (long id = row.maxId() - row.step(); id < row.maxId(); id++) {
                assertThat(issued.add(id)).as("ID %d twice", id).isTrue();
            }
            assertThat(owner(row.maxId() - 1)).isEqualTo(i < 3 ? 0 : 1);
            floor = row.maxId();
        }
        assertThat(threads).containsOnly(Thread.currentThread().getName());
        assertThat(multi.status().get(0).up()).isFalse();
    }

    /** A store found up again is asked after the others for a while: a restarted database may still be slow. */
    @Test
    void aStoreUpAgainIsAskedAfterTheOthersWhileItWarmsUp() {
        List<MultiStoreSegmentStore.Store> named = new ArrayList<>();
        for (int k = 0; k < stores.size(); k++) {
            named.add(new MultiStoreSegmentStore.Store("stores[" + k + "]", "memory " + k, stores.get(k)));
        }
        MultiStoreSegmentStore multi = multi(named, Duration.ofMinutes(1));
        stores.get(0).down(true);
        AllocRow fromSecond = multi.reserveFrom("orders", 1, 0);
        assertThat(owner(fromSecond.maxId() - 1)).isEqualTo(1);
        stores.get(0).down(false);
        await().atMost(Duration.ofSeconds(5)).until(() -> multi.status().get(0).up());
        assertThat(owner(multi.reserveFrom("orders", 1, fromSecond.maxId()).maxId() - 1))
                .as("store 1 still first while store 0 warms up").isEqualTo(1);
        stores.get(1).down(true);
        assertThat(owner(multi.reserveFrom("orders", 1, 0).maxId() - 1)).as("store 2, steady, before store 0")
                .isEqualTo(2);
        stores.get(2).down(true);
        assertThat(owner(multi.reserveFrom("orders", 1, 0).maxId() - 1)).as("store 0 when no steady one answers")
                .isZero();
    }

    @Test
    @Timeout(10)
    void aStalledStoreIsSkippedWithinTheBudget() {
        MultiStoreSegmentStore multi = multi();
        CountDownLatch stalled = new CountDownLatch(1);
        stores.get(0).stallUntil(stalled);
        long started = System.nanoTime();
        AllocRow row = multi.reserveFrom("orders", 1, Long.MIN_VALUE);
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        assertThat(owner(row.maxId() - 1)).isEqualTo(1);
        assertThat(tookMillis).as("one budget, not the stall").isLessThan(5_000);
        assertThat(multi.status().get(0).lastFailure()).contains("no answer within 200 ms");
        stalled.countDown();
    }

    @Test
    void aTagNoStoreKnowsIsUnknownAndOneMissingWhileAnotherIsDownIsAFault() {
        MultiStoreSegmentStore multi = multi();
        assertThatThrownBy(() -> multi.reserveFrom("nope", 1, 0)).isInstanceOf(UnknownTagException.class);
        stores.get(1).put("only-in-1", 1, 10);
        assertThat(multi.tags()).containsExactly("only-in-1", "orders");
        assertThat(owner(multi.reserveFrom("only-in-1", 1, 0).maxId() - 1)).isEqualTo(1);
        stores.get(1).down(true);
        assertThatThrownBy(() -> multi.reserveFrom("only-in-1", 1, 0)).isInstanceOf(SegmentStoreException.class)
                .hasMessageContaining("stores[1]: ").hasMessageContaining("stores[0]: Tag 'only-in-1' is not in");
    }

    @Test
    void everyStoreDownIsAFaultNamingEach() {
        MultiStoreSegmentStore multi = multi();
        stores.forEach(store -> store.down(true));
        assertThatThrownBy(() -> multi.reserveFrom("orders", 1, 0)).isInstanceOf(SegmentStoreException.class)
                .hasMessageContaining("stores[0]").hasMessageContaining("stores[1]").hasMessageContaining("stores[2]");
        assertThatThrownBy(multi::tags).isInstanceOf(SegmentStoreException.class);
    }

    /**
     * Two servers (each its own view of the three stores) take IDs while stores fail, stall and come
     * back in turn, one always answering: none repeats, each server's IDs increase, none fails.
     */
    @Test
    @Timeout(60)
    void twoServersThroughStoresFailingInTurnIssueEveryIdOnce() throws Exception {
        List<SegmentIdGenerator> servers = List.of(generator(multi()), generator(multi()));
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong issued = new AtomicLong();
        ExecutorService callers = Executors.newFixedThreadPool(2);
        List<Future<long[]>> taken = new ArrayList<>();
        for (SegmentIdGenerator server : servers) {
            taken.add(callers.submit(() -> {
                long[] ids = new long[3_000_000];
                int n = 0;
                while (running.get() && n < ids.length) {
                    ids[n++] = server.nextId();
                    if (n % 10_000 == 0) {
                        issued.addAndGet(10_000);
                    }
                }
                return java.util.Arrays.copyOf(ids, n);
            }));
        }
        try {
            faults(issued);
        } finally {
            running.set(false);
        }
        Set<Long> seen = new HashSet<>();
        int[] perStore = new int[3];
        for (Future<long[]> server : taken) {
            long[] ids = server.get(20, TimeUnit.SECONDS);
            for (int i = 0; i < ids.length; i++) {
                assertThat(seen.add(ids[i])).as("ID %d given twice", ids[i]).isTrue();
                if (i > 0) {
                    assertThat(ids[i]).as("a server's IDs increase").isGreaterThan(ids[i - 1]);
                }
                perStore[owner(ids[i])]++;
            }
        }
        callers.shutdownNow();
        assertThat(seen).hasSizeGreaterThan(4_000_000);
        assertThat(perStore).as("every store gave blocks").doesNotContain(0);
    }

    private SegmentIdGenerator generator(MultiStoreSegmentStore multi) {
        return new SegmentIdGenerator("orders", multi, new StepPolicy(1_000, Duration.ofMinutes(15)),
                InstantSource.system(), loader, Duration.ofSeconds(10));
    }

    /** Store 0 down, then store 1 stalled too (only 2 answers), then 0 back and 2 down, then all up. */
    private void faults(AtomicLong issued) {
        awaitIssued(issued, 500_000);
        stores.get(0).down(true);
        awaitIssued(issued, 1_500_000);
        CountDownLatch stall = new CountDownLatch(1);
        stores.get(1).stallUntil(stall);
        awaitIssued(issued, 2_500_000);
        stores.get(0).down(false);
        stall.countDown();
        stores.get(1).stallUntil(null);
        stores.get(2).down(true);
        awaitIssued(issued, 3_500_000);
        stores.get(2).down(false);
        awaitIssued(issued, 4_500_000);
    }

    private static void awaitIssued(AtomicLong issued, long count) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(1)).until(() -> issued.get() >= count);
    }
}
