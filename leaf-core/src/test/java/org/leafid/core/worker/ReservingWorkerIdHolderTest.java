package org.leafid.core.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeId;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.testing.FakeClock;

class ReservingWorkerIdHolderTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final int WORKER_ID = 42;
    /** Long enough that the real renewal thread never fires during a test that drives renew() itself. */
    private static final Duration SLOW_INTERVAL = Duration.ofHours(1);
    private static final Duration MAX_START_WAIT = Duration.ofSeconds(5);

    private final FakeClock clock = new FakeClock(T0);
    private final RecordingSink sink = new RecordingSink();
    private final List<ReservingWorkerIdHolder> holders = new ArrayList<>();

    @AfterEach
    void closeHolders() {
        holders.forEach(ReservingWorkerIdHolder::close);
    }

    @Test
    void startWithoutRecordedReservationRecordsOneAndDoesNotWait() {
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);

        holder.start();

        long expected = T0 + 2 * SLOW_INTERVAL.toMillis();
        assertThat(clock.sleepCount()).isZero();
        assertThat(sink.records).containsExactly(expected);
        assertThat(holder.lease()).isEqualTo(new WorkerLease(WORKER_ID, 0, expected));
    }

    @Test
    void startWaitsUntilTheClockPassesTheRecordedReservation() {
        long recorded = T0 + 3_000;
        ReservingWorkerIdHolder holder = holder(recorded, SLOW_INTERVAL);

        holder.start();

        // The wait moved the fake clock to the reservation: nothing before it can be issued.
        assertThat(clock.sleptMillis()).isEqualTo(3_000);
        assertThat(clock.millis()).isEqualTo(recorded);
        WorkerLease lease = holder.lease();
        assertThat(lease.validFromMillis()).isEqualTo(recorded);
        assertThat(lease.covers(recorded - 1)).isFalse();
        assertThat(lease.covers(recorded)).isTrue();
        assertThat(sink.records).containsExactly(recorded + 2 * SLOW_INTERVAL.toMillis());
    }

    @Test
    void startWaitsExactlyTheMaximumStartWait() {
        ReservingWorkerIdHolder holder = holder(T0 + MAX_START_WAIT.toMillis(), SLOW_INTERVAL);

        holder.start();

        assertThat(clock.sleptMillis()).isEqualTo(MAX_START_WAIT.toMillis());
    }

    @Test
    void startRefusesAReservationFurtherAheadThanTheMaximumStartWait() {
        long recorded = T0 + MAX_START_WAIT.toMillis() + 1;
        ReservingWorkerIdHolder holder = holder(recorded, SLOW_INTERVAL);

        assertThatThrownBy(holder::start)
                .isInstanceOf(ReservationAheadOfClockException.class)
                .satisfies(e -> {
                    ReservationAheadOfClockException ahead = (ReservationAheadOfClockException) e;
                    assertThat(ahead.workerId()).isEqualTo(WORKER_ID);
                    assertThat(ahead.reservedUntilMillis()).isEqualTo(recorded);
                    assertThat(ahead.nowMillis()).isEqualTo(T0);
                });
        // Refused without waiting in vain, and nothing recorded or held.
        assertThat(clock.sleepCount()).isZero();
        assertThat(sink.records).isEmpty();
        assertThatThrownBy(holder::lease).isInstanceOf(WorkerIdUnavailableException.class);
        assertThatThrownBy(holder::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void startFailsWhenTheFirstReservationCannotBeRecorded() {
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(WORKER_ID, 0, (id, until) -> {
            throw new IllegalStateException("disk full");
        }, clock, clock, SLOW_INTERVAL, MAX_START_WAIT);
        holders.add(holder);

        assertThatThrownBy(holder::start)
                .isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("disk full");
        assertThatThrownBy(holder::lease).isInstanceOf(WorkerIdUnavailableException.class);
    }

    @Test
    void aLeaseIsRefusedPastItsConfirmedWindowOnTheMonotonicClockWhateverTheWallClockSays() {
        AtomicLong nanos = new AtomicLong(1_000);
        ReservingWorkerIdHolder holder = pausableHolder(nanos);
        holder.start();
        long window = 2 * SLOW_INTERVAL.toNanos();

        nanos.addAndGet(window - 1);
        assertThat(holder.lease().covers(clock.millis())).isTrue();

        // Paused past the window (SIGSTOP, a frozen VM): the wall clock did not move, the lease did not end by
        // it, but the registry may have given the id to another process meanwhile. The registry does not
        // answer, so the urgent renewal the refusal queues fails too.
        sink.failWith(new WorkerIdUnavailableException("registry unreachable"));
        nanos.addAndGet(1);
        assertThatThrownBy(holder::lease).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("has not been confirmed by its registry");

        // A renewal the registry did not confirm changes nothing.
        assertThatThrownBy(holder::renew).isInstanceOf(WorkerIdUnavailableException.class);
        assertThatThrownBy(holder::lease).isInstanceOf(WorkerIdUnavailableException.class);

        // A confirmed one opens a new window, measured from when it began.
        sink.failWith(null);
        holder.renew();
        assertThat(holder.lease().workerId()).isEqualTo(WORKER_ID);
        nanos.addAndGet(window - 1);
        assertThat(holder.lease().workerId()).isEqualTo(WORKER_ID);
        nanos.addAndGet(1);
        assertThatThrownBy(holder::lease).isInstanceOf(WorkerIdUnavailableException.class);
    }

    @Test
    void aRenewalTheRegistryDidNotConfirmDoesNotMoveTheReservation() {
        AtomicLong nanos = new AtomicLong();
        ReservingWorkerIdHolder holder = pausableHolder(nanos);
        holder.start();
        WorkerLease before = holder.lease();
        clock.advance(1_000);

        sink.failWith(new WorkerIdUnavailableException("registry unreachable"));
        assertThatThrownBy(holder::renew).isInstanceOf(WorkerIdUnavailableException.class);

        assertThat(holder.lease()).isEqualTo(before);
    }

    @Test
    void aGeneratorOfAPausedHolderIssuesNothingUntilTheRegistryConfirmsAndNoIdRepeats() throws Exception {
        AtomicLong nanos = new AtomicLong();
        ReservingWorkerIdHolder holder = pausableHolder(nanos);
        holder.start();
        SnowflakeGenerator generator = generator(holder);
        Set<Long> ids = ConcurrentHashMap.newKeySet();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger repeated = new AtomicInteger();
        CountDownLatch halfway = new CountDownLatch(4);
        CountDownLatch paused = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 20_000; i++) {
                        if (i == 10_000) {
                            halfway.countDown();
                            paused.await(); // the rest after the pause
                        }
                        if (i % 1_000 == 0) {
                            clock.advance(1);
                        }
                        try {
                            if (!ids.add(generator.nextId())) {
                                repeated.incrementAndGet();
                            }
                        } catch (WorkerIdUnavailableException e) {
                            refused.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            assertThat(halfway.await(30, TimeUnit.SECONDS)).isTrue();
            // Paused past the window, the registry unreachable meanwhile.
            sink.failWith(new WorkerIdUnavailableException("registry unreachable"));
            nanos.addAndGet(2 * SLOW_INTERVAL.toNanos());
            paused.countDown();
            for (Future<?> thread : done) {
                thread.get(30, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        int issuedWhilePaused = ids.size();
        assertThatThrownBy(generator::nextId).isInstanceOf(WorkerIdUnavailableException.class);

        sink.failWith(null);
        holder.renew();
        clock.advance(1);
        for (int i = 0; i < 1_000; i++) {
            assertThat(ids.add(generator.nextId())).isTrue();
        }

        assertThat(repeated).hasValue(0);
        assertThat(ids).hasSize(issuedWhilePaused + 1_000);
        assertThat(issuedWhilePaused).as("issued before the pause").isEqualTo(40_000);
        assertThat(refused.get()).as("refused after the window ran out").isEqualTo(40_000);
    }

    @Test
    void leaseIsUnavailableBeforeStart() {
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);

        assertThatThrownBy(holder::lease).isInstanceOf(WorkerIdUnavailableException.class);
    }

    @Test
    void startTwiceIsAnError() {
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);
        holder.start();

        assertThatThrownBy(holder::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void renewalRecordsTheReservationBeforePublishingIt() {
        AtomicReference<ReservingWorkerIdHolder> self = new AtomicReference<>();
        List<long[]> seen = new CopyOnWriteArrayList<>(); // {recorded until, lease's until at that moment}
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(WORKER_ID, 0, (id, until) -> {
            ReservingWorkerIdHolder current = self.get();
            long published = current == null ? -1 : leaseUntilOrMinusOne(current);
            seen.add(new long[] {until, published});
        }, clock, clock, SLOW_INTERVAL, MAX_START_WAIT);
        holders.add(holder);
        self.set(holder);
        holder.start();
        long first = T0 + 2 * SLOW_INTERVAL.toMillis();

        clock.advance(Duration.ofMinutes(30));
        holder.renew();

        long second = clock.millis() + 2 * SLOW_INTERVAL.toMillis();
        assertThat(seen).hasSize(2);
        // While the sink records, the lease in force still ends at the old reservation (none at start).
        assertThat(seen.get(0)).containsExactly(first, -1);
        assertThat(seen.get(1)).containsExactly(second, first);
        assertThat(holder.lease().reservedUntilMillis()).isEqualTo(second);
    }

    @Test
    void renewalNeverMovesTheReservationBack() {
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);
        holder.start();
        long first = holder.lease().reservedUntilMillis();

        clock.stepBack(10_000);
        holder.renew();

        assertThat(holder.lease().reservedUntilMillis()).isEqualTo(first);
        assertThat(sink.records).containsExactly(first, first);
    }

    @Test
    void failedRecordingLeavesTheLeaseAsItWasSoIssuingStopsWhenItEnds() {
        RecordingSink failing = new RecordingSink();
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(WORKER_ID, 0, failing, clock, clock,
                SLOW_INTERVAL, MAX_START_WAIT);
        holders.add(holder);
        holder.start();
        long reservedUntil = holder.lease().reservedUntilMillis();
        SnowflakeGenerator generator = generator(holder);
        long last = generator.nextId();

        failing.failWith(new IllegalStateException("registry down"));
        clock.advance(SLOW_INTERVAL);
        assertThatThrownBy(holder::renew).hasMessageContaining("registry down");

        assertThat(holder.lease().reservedUntilMillis()).isEqualTo(reservedUntil);
        clock.set(reservedUntil - 1);
        assertThat(generator.nextId()).isGreaterThan(last);
        clock.set(reservedUntil);
        assertThatThrownBy(generator::nextId).isInstanceOf(WorkerIdUnavailableException.class);
    }

    @Test
    @Timeout(30)
    void backgroundRenewalFollowsTheClock() throws InterruptedException {
        Duration interval = Duration.ofMillis(20);
        // The monotonic clock stands still: this test is about the wall clock the renewals read, and a
        // loaded machine's renewal thread may fall more than the 40 ms window behind real time.
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(
                () -> new WorkerIdRegistry.Registration(WORKER_ID, 0, sink), clock, clock, interval, MAX_START_WAIT,
                () -> 0L);
        holders.add(holder);
        holder.start();
        assertThat(sink.queue.poll()).isEqualTo(T0 + 40);

        // The renewal thread runs on real time but reads the fake clock: wait (bounded) for a
        // reservation computed from the moved clock rather than sleeping for an interval.
        long moved = clock.advance(60_000);
        long expected = moved + 40;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Long recorded = null;
        while (recorded == null || recorded != expected) {
            long left = deadline - System.nanoTime();
            assertThat(left).as("a renewal recording %d", expected).isPositive();
            recorded = sink.queue.poll(left, TimeUnit.NANOSECONDS);
        }
        // The lease is published just after the record: wait for that too, within the same bound.
        while (holder.lease().reservedUntilMillis() < expected) {
            assertThat(System.nanoTime()).as("lease published after the record").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    @Timeout(30)
    void aLapsedReservationIsRenewedAtOnceRatherThanAtTheNextTick() throws Exception {
        // While the clock was stepped back the reservation could not move; when the clock is set
        // right past it, issuing must resume within one write, not one report interval (here 1 h).
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);
        holder.start();
        SnowflakeGenerator generator = generator(holder);
        Set<Long> ids = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 10_000; i++) {
            ids.add(generator.nextId());
        }
        sink.queue.clear();
        clock.advance(2 * SLOW_INTERVAL.toMillis() + 1_000);

        assertThatThrownBy(generator::nextId).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("reservation");
        assertThat(sink.queue.poll(10, TimeUnit.SECONDS)).isEqualTo(clock.millis() + 2 * SLOW_INTERVAL.toMillis());

        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 20_000; i++) {
                        ids.add(generator.nextId());
                    }
                }));
            }
            for (Future<?> each : done) {
                each.get(20, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(ids).hasSize(90_000);
    }

    @Test
    void refusalsDuringAnOutageQueueAtMostOneUrgentRenewalAtATime() throws Exception {
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);
        holder.start();
        SnowflakeGenerator generator = generator(holder);
        sink.failWith(new IllegalStateException("registry down"));
        int before = sink.attempts.get();
        clock.advance(2 * SLOW_INTERVAL.toMillis() + 1_000);

        for (int i = 0; i < 1_000; i++) {
            assertThatThrownBy(generator::nextId).isInstanceOf(WorkerIdUnavailableException.class);
        }

        // The clock did not move, so the thousand refusals asked for one renewal at most.
        holder.close(); // waits for the renewer to stop
        assertThat(sink.attempts.get() - before).isBetween(0, 1);
    }

    @Test
    void closeReleasesTheLeaseAndIsIdempotent() {
        ReservingWorkerIdHolder holder = holder(0, Duration.ofMillis(10));
        holder.start();
        SnowflakeGenerator generator = generator(holder);
        generator.nextId();

        holder.close();
        holder.close();

        assertThatThrownBy(holder::lease).isInstanceOf(WorkerIdUnavailableException.class);
        assertThatThrownBy(generator::nextId).isInstanceOf(WorkerIdUnavailableException.class);
        assertThatThrownBy(holder::renew).isInstanceOf(WorkerIdUnavailableException.class);
        assertThatThrownBy(holder::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void closeBeforeStartIsHarmlessAndForbidsStarting() {
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);

        holder.close();

        assertThatThrownBy(holder::start).isInstanceOf(IllegalStateException.class);
        assertThat(sink.records).isEmpty();
    }

    @Test
    void closingTheGeneratorReleasesTheReservationJustPastTheLastId() {
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);
        holder.start();
        SnowflakeGenerator generator = generator(holder);
        for (int ms = 0; ms <= 100; ms++) {
            generator.nextId();
            clock.advance(1);
        }

        generator.close();

        // The last ID carried T0 + 100; the clock reads T0 + 101 but nothing was issued then.
        assertThat(sink.records).containsExactly(T0 + 2 * SLOW_INTERVAL.toMillis(), T0 + 101);
        assertThatThrownBy(holder::lease).isInstanceOf(WorkerIdUnavailableException.class);
        assertThatThrownBy(generator::nextId).isInstanceOf(WorkerIdUnavailableException.class);
    }

    @Test
    void releaseNeverRecordsBeforeTheStartOfTheLease() {
        // Nothing issued in this run: the previous run's reservation still bounds what was issued.
        long recorded = T0 + 1_000;
        ReservingWorkerIdHolder holder = holder(recorded, SLOW_INTERVAL);
        holder.start();

        holder.release(T0 - 50_000);

        assertThat(sink.records).containsExactly(recorded + 2 * SLOW_INTERVAL.toMillis(), recorded);
    }

    @Test
    void releaseNeverLengthensTheReservation() {
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);
        holder.start();
        long reservedUntil = holder.lease().reservedUntilMillis();

        holder.release(reservedUntil + 1_000);

        assertThat(sink.records).allSatisfy(until -> assertThat(until).isLessThanOrEqualTo(reservedUntil));
        assertThat(sink.records).last().isEqualTo(reservedUntil);
    }

    @Test
    void releaseAfterAnIdOfThisVeryMillisecondWaitsOneSoTheFinalTimeIsNotAheadOfTheClock() {
        // A holder that refuses a recorded time ahead of its clock (Meituan Leaf) must accept it.
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);
        holder.start();

        holder.release(T0);

        assertThat(sink.records).containsExactly(T0 + 2 * SLOW_INTERVAL.toMillis(), T0 + 1);
        assertThat(clock.sleptMillis()).isEqualTo(1);
        assertThat(clock.millis()).isEqualTo(T0 + 1);
    }

    @Test
    void releaseAfterIdsAheadOfASetBackClockKeepsTheFinalTimeAndDoesNotWaitForIt() {
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);
        holder.start();

        holder.release(T0 + 500);

        // Lower would let the next holder repeat IDs; it waits for its clock instead.
        assertThat(sink.records).last().isEqualTo(T0 + 501);
        assertThat(clock.sleepCount()).isZero();
    }

    @Test
    void releaseThatCannotRecordLeavesTheLongerReservation() {
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);
        holder.start();
        sink.failWith(new IllegalStateException("disk full"));

        holder.release(T0);

        // Keeping the longer reservation is safe: a restart only waits longer.
        assertThat(sink.records).containsExactly(T0 + 2 * SLOW_INTERVAL.toMillis());
        assertThatThrownBy(holder::lease).isInstanceOf(WorkerIdUnavailableException.class);
    }

    @Test
    void releaseBeforeStartRecordsNothingAndForbidsStarting() {
        ReservingWorkerIdHolder holder = holder(0, SLOW_INTERVAL);

        holder.release(T0);

        assertThat(sink.records).isEmpty();
        assertThatThrownBy(holder::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void releaseGivesTheFinalReservationToTheSinkAsARelease() {
        List<Long> released = new CopyOnWriteArrayList<>();
        ReservationSink registrySink = new ReservationSink() {
            @Override
            public void record(int workerId, long reservedUntilMillis) {
                sink.record(workerId, reservedUntilMillis);
            }

            @Override
            public void release(int workerId, long finalReservationMillis) {
                released.add(finalReservationMillis);
            }
        };
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(WORKER_ID, 0, registrySink, clock, clock,
                SLOW_INTERVAL, MAX_START_WAIT);
        holders.add(holder);
        holder.start();

        holder.release(T0 + 10);

        // A recycling registry returns the id to its pool here, so it must hear of the release.
        assertThat(released).containsExactly(T0 + 11);
        assertThat(sink.records).containsExactly(T0 + 2 * SLOW_INTERVAL.toMillis());
    }

    @Test
    @Timeout(30)
    void lostWorkerIdStopsIssuingAndARenewalRegistersAgain() throws Exception {
        RecordingSink firstSink = new RecordingSink();
        RecordingSink secondSink = new RecordingSink();
        CountDownLatch registeringAgain = new CountDownLatch(1);
        CountDownLatch registryAnswers = new CountDownLatch(1);
        AtomicInteger registrations = new AtomicInteger();
        WorkerIdRegistry registry = () -> {
            if (registrations.getAndIncrement() == 0) {
                return new WorkerIdRegistry.Registration(1, 0, firstSink);
            }
            registeringAgain.countDown();
            await(registryAnswers);
            return new WorkerIdRegistry.Registration(2, T0 + 500, secondSink);
        };
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(registry, clock, clock, Duration.ofMillis(10),
                MAX_START_WAIT);
        holders.add(holder);
        holder.start();
        SnowflakeGenerator generator = generator(holder);
        long beforeLoss = generator.nextId();
        assertThat(SnowflakeLayout.leafDefault().decode(beforeLoss).workerId()).isEqualTo(1);

        // 1. The registry gave id 1 to someone else: the next renewal learns it.
        firstSink.failWith(new WorkerIdLostException("node taken over"));
        assertThat(registeringAgain.await(10, TimeUnit.SECONDS)).as("registering again").isTrue();

        // 2. While registering again, nothing is issued: not with the lost id, not with the next one.
        assertThatThrownBy(generator::nextId).isInstanceOf(WorkerIdUnavailableException.class);
        assertThat(holder.workerId()).isEqualTo(-1);

        // 3. The new id is used once the registry answers and its first reservation is recorded.
        registryAnswers.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (holder.workerId() != 2) {
            assertThat(System.nanoTime()).as("holding worker id 2").isLessThan(deadline);
            Thread.onSpinWait();
        }
        assertThat(secondSink.queue.poll(10, TimeUnit.SECONDS)).isNotNull();
        SnowflakeId afterLoss = SnowflakeLayout.leafDefault().decode(generator.nextId());
        assertThat(afterLoss.workerId()).isEqualTo(2);
        // The clock was behind the new id's recorded reservation: start waited it out (fake time).
        assertThat(afterLoss.timestampMillis()).isGreaterThanOrEqualTo(T0 + 500);
    }

    @Test
    void closeWhileStartIsWaitingForTheClockLeavesNothingHeld() {
        // close() from another thread (a shutdown hook) while start() waits for the reservation:
        // the Sleeper is where start() waits, so closing from inside it reproduces the interleaving.
        AtomicReference<ReservingWorkerIdHolder> self = new AtomicReference<>();
        AtomicReference<Throwable> closeFailure = new AtomicReference<>();
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(WORKER_ID, T0 + 1_000, sink, clock,
                millis -> {
                    try {
                        self.get().close();
                    } catch (Throwable e) {
                        closeFailure.set(e);
                    }
                    clock.sleepMillis(millis);
                }, SLOW_INTERVAL, MAX_START_WAIT);
        holders.add(holder);
        self.set(holder);

        Throwable startFailure = null;
        try {
            holder.start();
        } catch (RuntimeException e) {
            startFailure = e;
        }

        assertThat(closeFailure.get()).as("close() during start()").isNull();
        assertThat(startFailure).as("start() closed while waiting").isNotNull();
        assertThatThrownBy(holder::lease).as("lease after close").isInstanceOf(WorkerIdUnavailableException.class);
    }

    @Test
    @Timeout(30)
    void concurrentRenewalsNeverLeaveTheRecordBehindAnIssuedId() throws Exception {
        HoldingSink registry = new HoldingSink();
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(WORKER_ID, 0, registry, clock, clock,
                SLOW_INTERVAL, MAX_START_WAIT);
        holders.add(holder);
        holder.start();
        SnowflakeGenerator generator = generator(holder);
        long twoIntervals = 2 * SLOW_INTERVAL.toMillis();

        // 1. A renewal computes its reservation, then its write hangs (a slow disk or registry).
        clock.set(T0 + 1_000);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch entered = registry.holdNext(release);
        AtomicReference<Throwable> failures = new AtomicReference<>();
        Thread slow = start("slow-renewal", holder::renew, failures);
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        long slowReservation = T0 + 1_000 + twoIntervals;

        // 2. Meanwhile the clock reaches that reservation and a second renewal runs.
        clock.set(slowReservation);
        Thread fast = start("fast-renewal", holder::renew, failures);
        awaitFinishedOrBlocked(fast);
        long issuedAt = -1;
        try {
            issuedAt = SnowflakeLayout.leafDefault().decode(generator.nextId()).timestampMillis();
        } catch (WorkerIdUnavailableException e) {
            // Also safe: nothing issued beyond what is recorded.
        }

        // 3. The slow write lands last.
        release.countDown();
        slow.join(10_000);
        fast.join(10_000);
        assertThat(failures.get()).isNull();

        long recorded = registry.latest();
        assertThat(recorded).as("last recorded reservation").isGreaterThan(issuedAt);
        assertThat(recorded).as("last recorded reservation")
                .isGreaterThanOrEqualTo(holder.lease().reservedUntilMillis());
    }

    @Test
    void invalidArgumentsAreRejected() {
        // A worker id above 1023 is a holder's to keep (layouts may have more worker bits); the
        // generator refuses one its layout cannot carry (BorrowAheadTest).
        assertThatThrownBy(() -> new ReservingWorkerIdHolder(-1, 0, sink, clock, clock, SLOW_INTERVAL,
                MAX_START_WAIT)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReservingWorkerIdHolder(1, 0, sink, clock, clock, Duration.ZERO,
                MAX_START_WAIT)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReservingWorkerIdHolder(1, 0, sink, clock, clock, SLOW_INTERVAL,
                Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    private ReservingWorkerIdHolder holder(long recordedReservation, Duration reportInterval) {
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(WORKER_ID, recordedReservation, sink, clock,
                clock, reportInterval, MAX_START_WAIT);
        holders.add(holder);
        return holder;
    }

    /** A holder of a registry that hands out WORKER_ID, its confirmed window measured on {@code nanos}. */
    private ReservingWorkerIdHolder pausableHolder(AtomicLong nanos) {
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(
                () -> new WorkerIdRegistry.Registration(WORKER_ID, 0, sink), clock, clock, SLOW_INTERVAL,
                MAX_START_WAIT, nanos::get);
        holders.add(holder);
        return holder;
    }

    private SnowflakeGenerator generator(WorkerIdHolder holder) {
        return new SnowflakeGenerator(SnowflakeLayout.leafDefault(), holder, clock, clock, new Random(11),
                Duration.ofMillis(5));
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("test latch never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Thread start(String name, Runnable task, AtomicReference<Throwable> failures) {
        Thread thread = new Thread(() -> {
            try {
                task.run();
            } catch (Throwable e) {
                failures.compareAndSet(null, e);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Waits (bounded) until {@code thread} ended or is parked on a lock another thread holds. */
    private static void awaitFinishedOrBlocked(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            Thread.State state = thread.getState();
            if (state == Thread.State.TERMINATED || state == Thread.State.BLOCKED || state == Thread.State.WAITING) {
                return;
            }
            assertThat(System.nanoTime()).as("%s neither finished nor blocked", thread.getName())
                    .isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static long leaseUntilOrMinusOne(ReservingWorkerIdHolder holder) {
        try {
            return holder.lease().reservedUntilMillis();
        } catch (WorkerIdUnavailableException e) {
            return -1;
        }
    }

    /** Records every reservation in order, or fails on demand. */
    static final class RecordingSink implements ReservationSink {
        final List<Long> records = new CopyOnWriteArrayList<>();
        final BlockingQueue<Long> queue = new LinkedBlockingQueue<>();
        final AtomicInteger attempts = new AtomicInteger();
        private volatile RuntimeException failure;

        void failWith(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public void record(int workerId, long reservedUntilMillis) {
            attempts.incrementAndGet();
            RuntimeException current = failure;
            if (current != null) {
                throw current;
            }
            records.add(reservedUntilMillis);
            queue.add(reservedUntilMillis);
        }
    }


    /** Keeps the latest reservation; can hold one write at a gate to play a slow disk or registry. */
    static final class HoldingSink implements ReservationSink {
        private final AtomicReference<CountDownLatch[]> held = new AtomicReference<>();
        private final AtomicLong latest = new AtomicLong();

        /** The next write waits for {@code release}; the returned latch opens when it is waiting. */
        CountDownLatch holdNext(CountDownLatch release) {
            CountDownLatch entered = new CountDownLatch(1);
            held.set(new CountDownLatch[] {entered, release});
            return entered;
        }

        long latest() {
            return latest.get();
        }

        @Override
        public void record(int workerId, long reservedUntilMillis) {
            CountDownLatch[] gate = held.getAndSet(null);
            if (gate != null) {
                gate[0].countDown();
                try {
                    if (!gate[1].await(10, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("test gate never opened");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            latest.set(reservedUntilMillis);
        }
    }
}
