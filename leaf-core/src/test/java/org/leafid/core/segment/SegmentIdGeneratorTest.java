package org.leafid.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.leafid.core.LeafException;
import org.leafid.testing.FakeClock;
import org.leafid.testing.InMemorySegmentStore;

@Timeout(60)
class SegmentIdGeneratorTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final String TAG = "orders";
    /** Long enough never to expire on a busy machine in tests that are not about the wait. */
    private static final Duration LOAD_WAIT = Duration.ofSeconds(10);

    private final FakeClock clock = new FakeClock(T0);
    private final InMemorySegmentStore store = new InMemorySegmentStore();
    private final ExecutorService loader = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "test-segment-loader");
        thread.setDaemon(true);
        return thread;
    });
    private final List<ExecutorService> executors = new ArrayList<>(List.of(loader));

    @AfterEach
    void stopExecutors() {
        executors.forEach(ExecutorService::shutdownNow);
    }

    @Test
    void freshTagIssuesOneTwoThreeFromMaxIdOne() {
        store.put(TAG, 1, 100);
        SegmentIdGenerator generator = generator(loader, fixedStep(100), LOAD_WAIT);

        long[] first = {generator.nextId(), generator.nextId(), generator.nextId(), generator.nextId()};

        // The update moved max_id from 1 to 101: the block (1, 101] issues 1 .. 100.
        assertThat(first).containsExactly(1, 2, 3, 4);
        assertThat(store.reservedSizes(TAG)).containsExactly(100L);
        assertThat(store.maxId(TAG)).isEqualTo(101);
    }

    @Test
    void blockIssuesFromTheOldMaxIdUpToOneBelowTheNewOne() throws Exception {
        store.put(TAG, 5_000, 10);
        SegmentIdGenerator generator = generator(loader, fixedStep(10), LOAD_WAIT);

        long[] ids = next(generator, 20);

        assertThat(ids).containsExactly(LongStream.range(5_000, 5_020).toArray());
        drainLoader();
        assertThat(store.maxId(TAG)).isEqualTo(5_030); // two blocks served, the third preloaded
    }

    @Test
    void consecutiveIdsCrossBlocksWithoutAGap() throws Exception {
        store.put(TAG, 1, 10);
        SegmentIdGenerator generator = generator(loader, fixedStep(10), LOAD_WAIT);

        long[] ids = next(generator, 35);
        drainLoader();

        assertThat(ids).containsExactly(LongStream.rangeClosed(1, 35).toArray());
        // Four blocks served (1-10 .. 31-40); the fifth was preloaded once 32 was taken.
        assertThat(store.reserveCount(TAG)).isEqualTo(5);
        SegmentBufferView view = generator.view();
        assertThat(view.currentStart()).isEqualTo(31);
        assertThat(view.currentEnd()).isEqualTo(41);
        assertThat(view.currentRemaining()).isEqualTo(5);
        assertThat(view.nextReady()).isTrue();
        assertThat(view.nextStart()).isEqualTo(41);
        assertThat(view.nextEnd()).isEqualTo(51);
    }

    @Test
    void loaderRunningTasksInTheCallingThreadServesIdsToo() {
        // Executor allows running the task in the caller (a direct executor, CallerRunsPolicy).
        store.put(TAG, 1, 10);
        SegmentIdGenerator generator = generator(Runnable::run, fixedStep(10), LOAD_WAIT);

        long[] ids = next(generator, 35);

        assertThat(ids).containsExactly(LongStream.rangeClosed(1, 35).toArray());
        assertThat(store.reserveCount(TAG)).isEqualTo(5);
    }

    @Test
    void loaderRefusingTheLoadFailsWithATypedException() {
        // A bounded pool whose queue is full, or one shut down, rejects the load.
        ThreadPoolExecutor stopped = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        stopped.shutdown();
        store.put(TAG, 1, 10);
        SegmentIdGenerator generator = generator(stopped, fixedStep(10), LOAD_WAIT);

        assertThatThrownBy(generator::nextId).isInstanceOf(LeafException.class);
        assertThat(store.reserveCount(TAG)).isZero();
    }

    @Test
    void preloadStartsOnceMoreThanTenPercentIsUsed() throws Exception {
        store.put(TAG, 1, 100);
        BlockingQueue<Runnable> submitted = new LinkedBlockingQueue<>();
        SegmentIdGenerator generator = generator(submitted::add, fixedStep(100), LOAD_WAIT);
        assertThat(firstIdThroughGate(generator, submitted)).isEqualTo(1);

        assertThat(next(generator, 9)).containsExactly(LongStream.rangeClosed(2, 10).toArray());
        assertThat(submitted).as("loads submitted with 10 of 100 used").isEmpty();

        assertThat(generator.nextId()).isEqualTo(11);
        assertThat(submitted).as("loads submitted with 11 of 100 used").hasSize(1);

        assertThat(next(generator, 89)).containsExactly(LongStream.rangeClosed(12, 100).toArray());
        assertThat(submitted).as("loads submitted with the block spent").hasSize(1);
        assertThat(store.reserveCount(TAG)).isEqualTo(1);

        submitted.remove().run();
        assertThat(generator.view().nextReady()).isTrue();
        assertThat(generator.nextId()).isEqualTo(101);
        assertThat(submitted).as("loads submitted right after the switch").isEmpty();
        assertThat(store.reserveCount(TAG)).isEqualTo(2);
    }

    @Test
    void manyCallersCrossingThePreloadPointSubmitOneLoad() throws Exception {
        store.put(TAG, 1, 1_000);
        BlockingQueue<Runnable> submitted = new LinkedBlockingQueue<>();
        SegmentIdGenerator generator = generator(submitted::add, fixedStep(1_000), LOAD_WAIT);
        assertThat(firstIdThroughGate(generator, submitted)).isEqualTo(1);
        int threads = 8;
        int perThread = 100; // 801 of 1,000 used: past the 10 % point, short of the end
        ExecutorService callers = executor(Executors.newFixedThreadPool(threads));
        CountDownLatch startGate = new CountDownLatch(1);
        List<Future<long[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            results.add(callers.submit(() -> {
                startGate.await();
                return next(generator, perThread);
            }));
        }
        startGate.countDown();
        long[] all = new long[threads * perThread];
        for (int t = 0; t < threads; t++) {
            System.arraycopy(results.get(t).get(30, TimeUnit.SECONDS), 0, all, t * perThread, perThread);
        }

        assertThat(submitted).hasSize(1);
        assertThat(all).containsExactlyInAnyOrder(LongStream.rangeClosed(2, 801).toArray());
    }

    @Test
    void stepDoublesForShortBlocksKeepsForMediumOnesAndHalvesForLongOnes() throws Exception {
        store.put(TAG, 1, 10);
        // Each load starts its given time after the one before: that is how long the block lasted.
        List<Duration> lasted = List.of(Duration.ZERO,
                minutes(1), minutes(1), minutes(1), minutes(1),   // doubling, then held at the maximum
                minutes(20), minutes(20),                          // between 15 and 30 min: unchanged
                minutes(31), minutes(31), minutes(31), minutes(31)); // halving, then held at the row step
        AtomicInteger loads = new AtomicInteger();
        Executor timedLoader = task -> loader.execute(() -> {
            int load = loads.getAndIncrement();
            clock.advance(lasted.get(Math.min(load, lasted.size() - 1)));
            task.run();
        });
        SegmentIdGenerator generator = generator(timedLoader, new StepPolicy(80, minutes(15)), LOAD_WAIT);

        List<Long> ids = new ArrayList<>();
        while (store.reserveCount(TAG) < lasted.size()) {
            assertThat(ids).as("IDs taken waiting for %d loads", lasted.size()).hasSizeLessThan(10_000);
            ids.add(generator.nextId());
        }
        drainLoader();

        assertThat(store.reservedSizes(TAG).subList(0, lasted.size()))
                .containsExactly(10L, 20L, 40L, 80L, 80L, 80L, 80L, 40L, 20L, 10L, 10L);
        assertThat(ids).containsExactlyElementsOf(LongStream.rangeClosed(1, ids.size()).boxed().toList());
        assertThat(generator.view().step()).isEqualTo(10);
        assertThat(generator.view().rowStep()).isEqualTo(10);
    }

    @Test
    void rowStepRaisedByAnOperatorIsTheMinimumOfTheNextLoad() throws Exception {
        store.put(TAG, 1, 10);
        SegmentIdGenerator generator = generator(loader, fixedStep(10), LOAD_WAIT);
        generator.nextId();
        generator.nextId(); // preloads the second block of 10
        drainLoader();

        store.setStep(TAG, 50);
        long[] ids = next(generator, 18); // 3 .. 20; 12 preloads the third block
        drainLoader();

        assertThat(ids).containsExactly(LongStream.rangeClosed(3, 20).toArray());
        assertThat(store.reservedSizes(TAG)).containsExactly(10L, 10L, 50L);
        assertThat(generator.nextId()).isEqualTo(21);
        assertThat(generator.view().currentEnd()).isEqualTo(71);
    }

    @Test
    void tagWhoseNextBlockWouldPassLongMaxIsExhausted() {
        store.put(TAG, Long.MAX_VALUE - 5, 10);
        SegmentIdGenerator generator = generator(loader, fixedStep(10), LOAD_WAIT);

        assertThatThrownBy(generator::nextId)
                .isInstanceOf(TagExhaustedException.class)
                .satisfies(e -> {
                    TagExhaustedException exhausted = (TagExhaustedException) e;
                    assertThat(exhausted.tag()).isEqualTo(TAG);
                    assertThat(exhausted.maxId()).isEqualTo(Long.MAX_VALUE - 5);
                    assertThat(exhausted.step()).isEqualTo(10);
                });
        assertThat(store.maxId(TAG)).isEqualTo(Long.MAX_VALUE - 5);
    }

    @Test
    void lastBlocksUpToLongMaxAreIssuedThenTheTagIsExhausted() {
        store.put(TAG, Long.MAX_VALUE - 20, 10);
        SegmentIdGenerator generator = generator(loader, fixedStep(10), LOAD_WAIT);

        long[] ids = next(generator, 20);

        assertThat(ids).containsExactly(LongStream.range(Long.MAX_VALUE - 20, Long.MAX_VALUE).toArray());
        assertThat(store.maxId(TAG)).isEqualTo(Long.MAX_VALUE);
        // Spent for good: every further call fails the same typed way, never with a wrapped number.
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(generator::nextId).isInstanceOf(TagExhaustedException.class);
        }
    }

    @Test
    void spentBlockWithTheNextLoadHangingFailsAfterTheLoadWait() throws Exception {
        store.put(TAG, 1, 10);
        Duration loadWait = Duration.ofMillis(50);
        SegmentIdGenerator generator = generator(loader, fixedStep(10), loadWait);
        assertThat(generator.nextId()).isEqualTo(1);
        CountDownLatch databaseBack = new CountDownLatch(1);
        store.holdReservesUntil(databaseBack);

        assertThat(generator.nextId()).isEqualTo(2); // starts the preload, which hangs
        assertThat(store.awaitHeldReserve(Duration.ofSeconds(10))).isTrue();
        assertThat(next(generator, 8)).containsExactly(LongStream.rangeClosed(3, 10).toArray());
        long started = System.nanoTime();
        assertThatThrownBy(generator::nextId)
                .isInstanceOf(SegmentNotReadyException.class)
                .satisfies(e -> {
                    assertThat(((SegmentNotReadyException) e).tag()).isEqualTo(TAG);
                    assertThat(((SegmentNotReadyException) e).waited()).isEqualTo(loadWait);
                });
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(loadWait);
        // Another caller waits for the same load rather than starting a second one.
        assertThatThrownBy(generator::nextId).isInstanceOf(SegmentNotReadyException.class);
        assertThat(store.awaitHeldReserve(Duration.ZERO)).isFalse();

        store.holdReservesUntil(null);
        databaseBack.countDown();
        drainLoader();
        assertThat(generator.nextId()).isEqualTo(11);
        assertThat(store.reserveCount(TAG)).isEqualTo(2);
    }

    @Test
    void firstLoadHangingFailsAfterTheLoadWait() throws Exception {
        store.put(TAG, 1, 10);
        CountDownLatch databaseBack = new CountDownLatch(1);
        store.holdReservesUntil(databaseBack);
        SegmentIdGenerator generator = generator(loader, fixedStep(10), Duration.ofMillis(50));

        assertThatThrownBy(generator::nextId).isInstanceOf(SegmentNotReadyException.class);

        store.holdReservesUntil(null);
        databaseBack.countDown();
        drainLoader();
        assertThat(generator.nextId()).isEqualTo(1);
    }

    @Test
    void storeFailureIsReportedToTheCaller() {
        store.put(TAG, 1, 10);
        store.failReserves(true);
        SegmentIdGenerator generator = generator(loader, fixedStep(10), LOAD_WAIT);

        assertThatThrownBy(generator::nextId)
                .isInstanceOf(SegmentStoreException.class)
                .satisfies(e -> assertThat(((SegmentStoreException) e).tag()).isEqualTo(TAG));

        store.failReserves(false);
        assertThat(generator.nextId()).isEqualTo(1);
    }

    @Test
    void failedPreloadIsRetriedWhenTheBlockIsSpent() throws Exception {
        store.put(TAG, 1, 10);
        SegmentIdGenerator generator = generator(loader, fixedStep(10), LOAD_WAIT);
        assertThat(generator.nextId()).isEqualTo(1);
        store.failReserves(true);
        assertThat(generator.nextId()).isEqualTo(2); // its preload fails in the background
        drainLoader();
        assertThat(generator.view().loading()).isFalse();
        assertThat(generator.view().nextReady()).isFalse();

        store.failReserves(false);
        long[] ids = next(generator, 9);

        assertThat(ids).containsExactly(LongStream.rangeClosed(3, 11).toArray());
        assertThat(store.reservedSizes(TAG)).containsExactly(10L, 10L);
    }

    @Test
    void tagWithoutARowIsUnknown() {
        SegmentIdGenerator generator = generator(loader, fixedStep(10), LOAD_WAIT);

        assertThatThrownBy(generator::nextId)
                .isInstanceOf(UnknownTagException.class)
                .satisfies(e -> assertThat(((UnknownTagException) e).tag()).isEqualTo(TAG));
    }

    @Test
    void deletedRowIsUnknownOnceTheReservedBlockIsSpent() {
        store.put(TAG, 1, 10);
        SegmentIdGenerator generator = generator(loader, fixedStep(10), LOAD_WAIT);
        assertThat(generator.nextId()).isEqualTo(1);
        store.remove(TAG);

        // Numbers already reserved are still this instance's to hand out.
        assertThat(next(generator, 9)).containsExactly(LongStream.rangeClosed(2, 10).toArray());
        assertThatThrownBy(generator::nextId).isInstanceOf(UnknownTagException.class);
    }

    @Test
    void viewReportsTheDoubleBuffer() throws Exception {
        store.put(TAG, 1, 10);
        SegmentIdGenerator generator = generator(loader, fixedStep(10), LOAD_WAIT);
        SegmentBufferView before = generator.view();

        generator.nextId();
        generator.nextId();
        drainLoader();
        SegmentBufferView after = generator.view();

        assertThat(before.initialized()).isFalse();
        assertThat(before.nextReady()).isFalse();
        assertThat(after).isEqualTo(new SegmentBufferView(TAG, true, 1, 11, 8, 11L, 21L, true, false, 10, 10, T0, null));
    }

    @Test
    void hotPathAllocatesNothing() throws Exception {
        store.put(TAG, 1, 1_000_000);
        SegmentIdGenerator generator = generator(loader, fixedStep(1_000_000), LOAD_WAIT);
        // Warm up past the preload point, so the measured calls only take numbers from the block.
        next(generator, 200_000);
        drainLoader();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long threadId = Thread.currentThread().getId();

        long before = threads.getThreadAllocatedBytes(threadId);
        long sum = 0;
        for (int i = 0; i < 100_000; i++) {
            sum += generator.nextId();
        }
        long allocated = threads.getThreadAllocatedBytes(threadId) - before;

        assertThat(sum).isPositive();
        // One boxed long or one object per call would be well over a megabyte; allow measuring noise.
        assertThat(allocated).isLessThan(16 * 1024);
    }

    /** Runs every load submitted so far: the loader is single-threaded and runs tasks in order. */
    private void drainLoader() throws Exception {
        loader.submit(() -> { }).get(10, TimeUnit.SECONDS);
    }

    /** Takes the first ID on another thread, running the load it waits for from the gate. */
    private long firstIdThroughGate(SegmentIdGenerator generator, BlockingQueue<Runnable> submitted)
            throws Exception {
        CompletableFuture<Long> first = CompletableFuture.supplyAsync(generator::nextId, loader);
        Runnable load = submitted.poll(10, TimeUnit.SECONDS);
        assertThat(load).as("the first load").isNotNull();
        load.run();
        return first.get(10, TimeUnit.SECONDS);
    }

    private SegmentIdGenerator generator(Executor executor, StepPolicy policy, Duration loadWait) {
        return new SegmentIdGenerator(TAG, store, policy, clock, executor, loadWait);
    }

    private ExecutorService executor(ExecutorService executor) {
        executors.add(executor);
        return executor;
    }

    /** A policy that never grows the step past the row's {@code step}: doubling would exceed it. */
    private static StepPolicy fixedStep(long step) {
        return new StepPolicy(step, minutes(15));
    }

    private static Duration minutes(long minutes) {
        return Duration.ofMinutes(minutes);
    }

    private static long[] next(SegmentIdGenerator generator, int count) {
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = generator.nextId();
        }
        return ids;
    }
}
