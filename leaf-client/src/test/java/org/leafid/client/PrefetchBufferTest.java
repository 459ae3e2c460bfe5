package org.leafid.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The buffer's own logic over an in-memory source of batches (the HTTP side is tested against
 * real servers in leaf-server's LeafClientIT).
 */
class PrefetchBufferTest {

    private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2);

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void eightThreadsTakeEveryIdOnceAndEachSeesThemIncreasing() throws Exception {
        eightThreadsTakeEveryIdOnceAndEachSeesThemIncreasing(new CountingSource(), 1000);
    }

    @Test
    void eightThreadsClaimingManyIdsAtATimeFromRunsTakeEveryIdOnceAndEachSeesThemIncreasing() throws Exception {
        // Batches up to 100,000 let a thread claim up to 64 IDs at a time; each answer is one run, never an array.
        eightThreadsTakeEveryIdOnceAndEachSeesThemIncreasing(CountingSource.ofRuns(100_000), 100_000);
    }

    @Test
    void eightThreadsTakeEveryIdOnceFromAnswersOfManyRunsAndNoneFromTheHolesBetweenThem() throws Exception {
        // Every thousandth number is skipped, as blocks of a tag leave holes: each answer of 100,000 is
        // about a hundred runs, and a claim that spans a hole is copied, not taken as one run.
        CountingSource source = CountingSource.ofRunsSkipping(100_000, 1000);
        List<Long> inHoles = new ArrayList<>();
        eightThreadsTakeEveryIdOnceAndEachSeesThemIncreasing(source, 100_000, id -> {
            if (id % 1000 == 0) {
                synchronized (inHoles) {
                    inHoles.add(id);
                }
            }
        });
        assertThat(inHoles).as("IDs between the runs").isEmpty();
    }

    private void eightThreadsTakeEveryIdOnceAndEachSeesThemIncreasing(CountingSource source, int maxBatch)
            throws Exception {
        eightThreadsTakeEveryIdOnceAndEachSeesThemIncreasing(source, maxBatch, id -> { });
    }

    private void eightThreadsTakeEveryIdOnceAndEachSeesThemIncreasing(CountingSource source, int maxBatch,
            LongConsumer eachId) throws Exception {
        PrefetchBuffer buffer = buffer(source, true, maxBatch);
        int threads = 8;
        int perThread = 250_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<long[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            results.add(pool.submit(() -> {
                long[] ids = new long[perThread];
                int i = 0;
                while (i < perThread) {
                    if (thread % 2 == 0 || perThread - i < 7) {
                        ids[i++] = buffer.nextId();
                    } else {
                        long[] some = buffer.nextIds(7);
                        System.arraycopy(some, 0, ids, i, 7);
                        i += 7;
                    }
                }
                return ids;
            }));
        }
        long[] all = new long[threads * perThread];
        int at = 0;
        for (Future<long[]> result : results) {
            long[] ids = result.get();
            for (int i = 1; i < ids.length; i++) {
                assertThat(ids[i]).as("a thread's IDs increase").isGreaterThan(ids[i - 1]);
            }
            for (long id : ids) {
                eachId.accept(id);
            }
            System.arraycopy(ids, 0, all, at, ids.length);
            at += ids.length;
        }
        pool.shutdown();
        Arrays.sort(all);
        for (int i = 1; i < all.length; i++) {
            assertThat(all[i]).as("no ID twice").isNotEqualTo(all[i - 1]);
        }
        assertThat(all).hasSize(2_000_000);
        assertThat(all[all.length - 1]).as("every ID was issued by the source").isLessThanOrEqualTo(source.issued());
    }

    @Test
    void theNextBatchIsFetchedInTheBackgroundOnceTheThresholdIsTaken() {
        CountingSource source = new CountingSource();
        PrefetchBuffer buffer = buffer(source, false, 1000);
        assertThat(buffer.nextId()).isEqualTo(1); // the first call waits for the first batch (100)
        for (int i = 0; i < 9; i++) {
            buffer.nextId();
        }
        assertThat(source.fetches.get()).isEqualTo(1);
        buffer.nextId(); // index 10 of 100: the threshold (0.1)
        await().atMost(Duration.ofSeconds(5)).until(() -> buffer.buffered() > 89);
        assertThat(source.fetches.get()).isEqualTo(2);
        assertThat(buffer.nextIds(89)).hasSize(89).endsWith(100);
        assertThat(buffer.nextId()).isEqualTo(101);
    }

    @Test
    void segmentIdsNotAboveThoseTakenInAreDropped() {
        ScriptedSource source = new ScriptedSource(range(1, 100), range(1001, 1100), range(101, 200),
                range(150, 250), range(2001, 2100));
        PrefetchBuffer buffer = buffer(source, true, 1000);
        long[] ids = buffer.nextIds(250);
        for (int i = 1; i < ids.length; i++) {
            assertThat(ids[i]).isGreaterThan(ids[i - 1]);
        }
        assertThat(ids[99]).isEqualTo(100);
        assertThat(ids[100]).isEqualTo(1001);
        assertThat(ids[200]).as("two stale batches dropped whole").isEqualTo(2001);
    }

    @Test
    void aSegmentTagsIdZeroIsNeverServed() {
        PrefetchBuffer buffer = buffer(new ScriptedSource(range(0, 99)), true, 1000);
        assertThat(buffer.nextId()).as("0 skipped: every ID handed out is positive").isEqualTo(1);
        assertThat(buffer.nextIds(98)).endsWith(99);
    }

    @Test
    void atTheLargestSizeTwoBatchesAreFetchedAtOnceAndAnOvertakenAnswerIsServedInOrder() {
        CountDownLatch higherDelivered = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        BatchSource source = (path, count, check) -> {
            int call = calls.incrementAndGet();
            if (call == 2) { // answers after the third call's answer: overtaken
                try {
                    assertThat(higherDelivered.await(10, TimeUnit.SECONDS)).as("two fetches at once").isTrue();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return AnswerIds.of(range(101, 200));
            }
            if (call == 3) {
                higherDelivered.countDown();
                return AnswerIds.run(201, 100);
            }
            return AnswerIds.of(call == 1 ? range(1, 100) : range(call * 100L + 1, call * 100L + 100));
        };
        PrefetchBuffer buffer = buffer(source, true, 100); // the first batch is the largest
        long[] first = buffer.nextIds(50);
        await().atMost(Duration.ofSeconds(10)).until(() -> buffer.buffered() == 250); // both answers in
        long[] rest = buffer.nextIds(250);
        assertThat(first[0]).isEqualTo(1);
        for (int i = 0; i < rest.length; i++) {
            assertThat(rest[i]).as("served in ID order, nothing dropped").isEqualTo(51 + i);
        }
    }

    @Test
    void twoSnowflakeAnswersInFlightTogetherThatOverlapEachOtherAreNotBothServed() {
        // Both requests leave after [1..100] was accepted; the later one is answered first, and each answer starts
        // at the last ID of the one the server gave before it: [101..200] and [200..299] share 200.
        CountDownLatch higherJudged = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger judged = new AtomicInteger();
        ConcurrentLinkedQueue<String> refused = new ConcurrentLinkedQueue<>();
        BatchSource source = (path, count, check) -> {
            int call = calls.incrementAndGet();
            AnswerCheck.Judge judge = check.before("http://a");
            long[] ids;
            if (call == 2) {
                try {
                    assertThat(higherJudged.await(10, TimeUnit.SECONDS)).as("two fetches at once").isTrue();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                ids = range(101, 200);
            } else if (call == 3) {
                ids = range(200, 299);
            } else {
                ids = call == 1 ? range(1, 100) : range(call * 1000L + 1, call * 1000L + 100);
            }
            try {
                judge.accept(AnswerIds.of(ids));
                return AnswerIds.of(ids);
            } catch (BadAnswerException e) {
                refused.add(e.check());
                throw new ServersUnavailableException(e.getMessage(), System.nanoTime(), e);
            } finally {
                judged.incrementAndGet();
                if (call == 3) {
                    higherJudged.countDown();
                }
            }
        };
        PrefetchBuffer buffer = snowflakeBuffer(source);
        long[] first = buffer.nextIds(50);
        await().atMost(Duration.ofSeconds(10)).until(() -> judged.get() >= 3); // both answers judged
        long[] rest = buffer.nextIds(400);
        long[] ids = Arrays.copyOf(first, first.length + rest.length);
        System.arraycopy(rest, 0, ids, first.length, rest.length);
        assertThat(ids.length - Arrays.stream(ids).distinct().count()).as("IDs handed out twice").isZero();
        assertThat(refused).as("one of the two overlapping answers refused").containsExactly("repeated");
    }

    @Test
    void aRefusalIsThrownOnceTheBufferedIdsAreServed() {
        ScriptedSource source = new ScriptedSource(range(1, 100));
        PrefetchBuffer buffer = buffer(source, false, 1000);
        assertThat(buffer.nextIds(100)).endsWith(100);
        assertThatThrownBy(buffer::nextId).isInstanceOf(LeafUnknownKeyException.class)
                .hasMessageContaining("unknown-tag").hasCauseInstanceOf(LeafUnknownKeyException.class);
    }

    @Test
    void threadsTakingAFewIdsEachClaimExactlyWhatTheyTakeAndLeaveNoGap() throws Exception {
        // Batches of 100,000 allow claims of 64; a thread per call, as with a virtual thread per request.
        PrefetchBuffer buffer = buffer(CountingSource.ofRuns(100_000), true, 100_000);
        List<Long> taken = new ArrayList<>();
        for (int t = 0; t < 100; t++) {
            ExecutorService thread = Executors.newSingleThreadExecutor();
            try {
                long[] ids = thread.submit(() -> new long[] {buffer.nextId(), buffer.nextId(), buffer.nextIds(8)[7]})
                        .get();
                taken.add(ids[0]);
                taken.add(ids[1]);
                taken.add(ids[2]);
            } finally {
                thread.shutdownNow();
            }
        }
        for (int t = 0; t < 100; t++) {
            assertThat(taken.subList(3 * t, 3 * t + 3)).as("thread %d", t)
                    .containsExactly(10L * t + 1, 10L * t + 2, 10L * t + 10);
        }
        assertThat(buffer.nextId()).as("no ID left behind by the 100 threads").isEqualTo(1001);
    }

    @Test
    void aThreadsClaimIsServedInTheNextBatchButNeverAfterThat() throws Exception {
        // 4,096 IDs a batch: claims of at most 4 (4,096 / 1,024), after the first 64 IDs one at a time.
        ScriptedSource source = new ScriptedSource(range(1, 4096), range(10_001, 14_096), range(20_001, 24_096),
                range(30_001, 34_096));
        PrefetchBuffer buffer = buffer(source, true, 5000);
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            long[] first = other.submit(() -> take(buffer, 68)).get();
            assertThat(first).as("1 to 65 one at a time, 66 and 67 together, then 68 of 68 to 71")
                    .containsExactly(range(1, 68));

            assertThat(buffer.nextIds(4096 - 71)).as("69 to 71 are the other thread's").startsWith(72)
                    .endsWith(4096);
            assertThat(buffer.nextId()).as("the second batch is current").isEqualTo(10_001);
            assertThat(other.submit(() -> take(buffer, 4)).get())
                    .as("what it held of the batch before, then 10,002 of 10,002 to 10,005")
                    .containsExactly(69, 70, 71, 10_002);

            assertThat(buffer.nextIds(4096 - 5)).startsWith(10_006).endsWith(14_096);
            assertThat(buffer.nextIds(4096)).startsWith(20_001).endsWith(24_096);
            assertThat(buffer.nextId()).as("the fourth batch is current").isEqualTo(30_001);
            assertThat(other.submit(buffer::nextId).get())
                    .as("10,003 to 10,005 came two batches before: a gap, never served").isEqualTo(30_002);
            assertThat(buffer.nextId()).as("idle for a whole batch, the other thread claimed one ID again, not four")
                    .isEqualTo(30_003);
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void aThreadsOwnClaimComesFirstInItsBatchOfIds() throws Exception {
        ScriptedSource source = new ScriptedSource(range(1, 4096));
        PrefetchBuffer buffer = buffer(source, true, 5000);
        assertThat(take(buffer, 68)).containsExactly(range(1, 68)); // 69 to 71 claimed with 68
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertThat(other.submit(buffer::nextId).get()).isEqualTo(72);
        } finally {
            other.shutdownNow();
        }
        assertThat(buffer.nextIds(5)).as("this thread's IDs increase: its claim first, then the batch")
                .containsExactly(69, 70, 71, 73, 74);
    }

    @Test
    void aFirstCallWaitsThroughFailedFetchesWithinTheBound() {
        CountingSource source = new CountingSource();
        source.failuresLeft.set(3);
        PrefetchBuffer buffer = buffer(source, false, 1000);
        assertThat(buffer.nextId()).isEqualTo(1);
        assertThat(source.fetches.get()).isEqualTo(4);
    }

    @Test
    void closeWakesAWaitingCaller() throws Exception {
        CountingSource source = new CountingSource();
        source.failuresLeft.set(Integer.MAX_VALUE);
        PrefetchBuffer buffer = buffer(source, false, 1000);
        ConcurrentLinkedQueue<Throwable> thrown = new ConcurrentLinkedQueue<>();
        Thread waiter = new Thread(() -> {
            try {
                buffer.nextId();
            } catch (RuntimeException e) {
                thrown.add(e);
            }
        });
        waiter.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> source.fetches.get() > 0);
        buffer.close();
        waiter.join(5_000);
        assertThat(thrown).singleElement().isInstanceOf(LeafUnavailableException.class)
                .extracting(Throwable::getMessage).asString().contains("closed");
    }

    private PrefetchBuffer buffer(BatchSource source, boolean increasing, int maxBatch) {
        return new PrefetchBuffer("segment", "test", "/api/segment/get/test?", increasing, SegmentAnswerCheck::new,
                source, executor, new BatchSizer(maxBatch, Duration.ofMillis(100).toNanos()), 0.1,
                Duration.ofSeconds(30),
                System::nanoTime, ClientMeters.NONE);
    }

    /** The snowflake buffer as LeafClient makes it. */
    private PrefetchBuffer snowflakeBuffer(BatchSource source) {
        return new PrefetchBuffer("snowflake", "snowflake", "/api/snowflake/get/leaf-client?", true,
                SnowflakeAnswerCheck::new, source, executor,
                new BatchSizer(100, Duration.ofMillis(100).toNanos()), 0.1, Duration.ofSeconds(30), System::nanoTime,
                ClientMeters.NONE);
    }

    private static long[] take(PrefetchBuffer buffer, int count) {
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = buffer.nextId();
        }
        return ids;
    }

    private static long[] range(long first, long last) {
        long[] ids = new long[(int) (last - first + 1)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = first + i;
        }
        return ids;
    }

    /**
     * Consecutive numbers from 1, as a segment server hands them out; optionally failing first. Each
     * answer is the count asked for as an array (as lines are read), or runs of one size whatever the
     * count (as ranges are read, from a server whose batches are that large).
     */
    private static final class CountingSource implements BatchSource {
        /** The size of every answer as runs, or 0 for arrays of the count asked. */
        private final int runSize;
        /** Runs: the multiples of this are skipped, holes between runs; 0 for one run an answer. */
        private final long skipping;
        final AtomicLong next = new AtomicLong(1);
        final AtomicInteger fetches = new AtomicInteger();
        final AtomicInteger failuresLeft = new AtomicInteger();

        CountingSource() {
            this(0, 0);
        }

        private CountingSource(int runSize, long skipping) {
            this.runSize = runSize;
            this.skipping = skipping;
        }

        static CountingSource ofRuns(int size) {
            return new CountingSource(size, 0);
        }

        /** Answers of {@code size} IDs, the multiples of {@code skip} left out: runs with holes between them. */
        static CountingSource ofRunsSkipping(int size, long skip) {
            return new CountingSource(size, skip);
        }

        @Override
        public AnswerIds fetch(String path, int count, AnswerCheck check) throws ServersUnavailableException {
            fetches.incrementAndGet();
            if (failuresLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                throw new ServersUnavailableException("down", System.nanoTime(), null);
            }
            if (runSize > 0 && skipping > 0) {
                synchronized (this) {
                    long[] bounds = new long[2 * (int) (runSize / (skipping - 1) + 2)];
                    int runs = 0;
                    int left = runSize;
                    while (left > 0) {
                        long first = next.get() % skipping == 0 ? next.incrementAndGet() : next.get();
                        long last = Math.min(first + left - 1, (first / skipping + 1) * skipping - 1);
                        bounds[2 * runs] = first;
                        bounds[2 * runs + 1] = last;
                        runs++;
                        left -= (int) (last - first + 1);
                        next.set(last + 1);
                    }
                    return AnswerIds.runs(bounds, runs);
                }
            }
            if (runSize > 0) {
                return AnswerIds.run(next.getAndAdd(runSize), runSize);
            }
            long first = next.getAndAdd(count);
            return AnswerIds.of(range(first, first + count - 1));
        }

        long issued() {
            return next.get() - 1;
        }
    }

    /** The given batches in order, whatever the count asked; then unknown-tag. */
    private static final class ScriptedSource implements BatchSource {
        private final ConcurrentLinkedQueue<long[]> batches;

        ScriptedSource(long[]... batches) {
            this.batches = new ConcurrentLinkedQueue<>(List.of(batches));
        }

        @Override
        public AnswerIds fetch(String path, int count, AnswerCheck check) {
            long[] batch = batches.poll();
            if (batch == null) {
                throw LeafRequestException.of(404, "urn:leaf:problem:unknown-tag", "no such tag", null);
            }
            return AnswerIds.of(batch);
        }
    }
}
