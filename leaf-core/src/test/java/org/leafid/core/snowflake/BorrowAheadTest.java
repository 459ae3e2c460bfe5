package org.leafid.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.SnowflakeLayout.Unit;
import org.leafid.testing.FakeClock;
import org.leafid.core.testing.FixedWorkerIdHolder;
import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.core.worker.WorkerLease;

/**
 * Borrowing ahead (uid-generator's cached generation, {@code leaf.snowflake.borrow-ahead}): with
 * the clock frozen inside one second, the sequences of the following seconds are issued at once,
 * never past the lease's reservation unless borrowing is unbounded (disposable worker ids).
 */
class BorrowAheadTest {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.uidGenerator(); // 31/20/12 s
    private static final long NOW = Instant.parse("2026-11-24T10:00:00.400Z").toEpochMilli();
    /** The reservation: 6 s ahead of the clock, as the holders keep it. */
    private static final long RESERVED_UNTIL = NOW + 6_000;

    /** The clock never moves; a wait is recorded and refused, so that a test sees where issuing would wait. */
    private static final class FrozenClock implements InstantSource, Sleeper {
        volatile int waits;

        @Override
        public long millis() {
            return NOW;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(NOW);
        }

        @Override
        public void sleepMillis(long millis) {
            waits++;
            throw new IllegalStateException("would wait for the clock");
        }

        @Override
        public void awaitTick() {
            sleepMillis(1);
        }
    }

    /** A holder whose lease never changes. */
    private record FixedHolder(WorkerLease lease) implements WorkerIdHolder {
        @Override
        public void start() {
        }

        @Override
        public void release(long lastIssuedMillis) {
        }

        @Override
        public void close() {
        }
    }

    private final FrozenClock clock = new FrozenClock();

    private SnowflakeGenerator generator(Borrowing borrowing, int workerId) {
        return new SnowflakeGenerator(LAYOUT, new FixedHolder(new WorkerLease(workerId, 0, RESERVED_UNTIL)), clock,
                clock, new Random(7), Duration.ofMillis(5), borrowing);
    }

    @Test
    void aFrozenSecondLendsTheFollowingSecondsUpToTheReservationAndNoFurther() {
        SnowflakeGenerator generator = generator(Borrowing.WITHIN_RESERVATION, 1_048_575);
        long nowSecond = LAYOUT.elapsed(NOW);
        // Units whose end is within the reservation: the current second and the next 5.
        long lastUnit = LAYOUT.elapsed(RESERVED_UNTIL) - 1;
        assertThat(LAYOUT.millisOf(lastUnit + 1)).isLessThanOrEqualTo(RESERVED_UNTIL);
        List<Long> ids = new ArrayList<>();
        assertThatThrownBy(() -> {
            for (;;) {
                ids.add(generator.nextId());
            }
        }).hasMessageContaining("would wait for the clock");

        long units = lastUnit - nowSecond + 1;
        // The first second starts at a random offset below 100; every later one at sequence 0.
        int offset = LAYOUT.decode(ids.get(0)).sequence();
        assertThat(ids).hasSize((int) (units * 4096 - offset));
        long previous = -1;
        for (long id : ids) {
            assertThat(id).isGreaterThan(previous);
            previous = id;
            SnowflakeId parts = LAYOUT.decode(id);
            assertThat(parts.workerId()).isEqualTo(1_048_575);
            long unit = LAYOUT.elapsed(parts.timestampMillis());
            assertThat(unit).isBetween(nowSecond, lastUnit);
            assertThat(LAYOUT.millisOf(unit + 1)).as("never past the reservation").isLessThanOrEqualTo(RESERVED_UNTIL);
        }
        assertThat(generator.borrowedMillis()).isEqualTo(LAYOUT.millisOf(lastUnit) - NOW);
    }

    @Test
    void withoutBorrowingASpentSecondWaitsForTheClock() {
        SnowflakeGenerator generator = generator(Borrowing.NONE, 3);
        int issued = 0;
        try {
            for (;;) {
                generator.nextId();
                issued++;
            }
        } catch (IllegalStateException waited) {
            assertThat(waited).hasMessageContaining("would wait");
        }
        assertThat(issued).isBetween(4096 - 100, 4096);
        assertThat(generator.borrowedMillis()).isZero();
    }

    @Test
    void unboundedBorrowingGoesPastTheReservationAsDisposableWorkerIdsMay() {
        SnowflakeGenerator generator = generator(Borrowing.UNBOUNDED, 9);
        long[] ids = generator.nextIds(20 * 4096);
        long lastSecond = LAYOUT.elapsed(LAYOUT.decode(ids[ids.length - 1]).timestampMillis());
        assertThat(LAYOUT.millisOf(lastSecond)).isGreaterThan(RESERVED_UNTIL);
        for (int i = 1; i < ids.length; i++) {
            assertThat(ids[i]).isGreaterThan(ids[i - 1]);
        }
    }

    @Test
    void aBatchTakesWholeRangesOfSequencesAcrossBorrowedSeconds() {
        SnowflakeGenerator generator = generator(Borrowing.UNBOUNDED, 5);
        long first = generator.nextId();
        long[] batch = generator.nextIds(10_000);
        assertThat(batch[0]).isEqualTo(first + 1);
        for (int i = 1; i < batch.length; i++) {
            assertThat(batch[i]).isGreaterThan(batch[i - 1]);
            SnowflakeId previous = LAYOUT.decode(batch[i - 1]);
            SnowflakeId current = LAYOUT.decode(batch[i]);
            // Consecutive within a second; a new second starts at sequence 0.
            if (current.timestampMillis() == previous.timestampMillis()) {
                assertThat(current.sequence()).isEqualTo(previous.sequence() + 1);
            } else {
                assertThat(current.sequence()).isZero();
            }
        }
        assertThat(generator.nextId()).isEqualTo(batch[batch.length - 1] + 1);
    }

    @Test
    void eightThreadsBorrowingIssueNoDuplicate() throws Exception {
        SnowflakeGenerator generator = generator(Borrowing.UNBOUNDED, 77);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                results.add(threads.submit(() -> {
                    long[] ids = new long[50_000];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = thread % 2 == 0 ? generator.nextId() : generator.nextIds(1)[0];
                    }
                    return ids;
                }));
            }
            long[] all = new long[0];
            for (Future<long[]> result : results) {
                long[] ids = result.get(60, TimeUnit.SECONDS);
                for (int i = 1; i < ids.length; i++) {
                    assertThat(ids[i]).isGreaterThan(ids[i - 1]);
                }
                long[] merged = Arrays.copyOf(all, all.length + ids.length);
                System.arraycopy(ids, 0, merged, all.length, ids.length);
                all = merged;
            }
            assertThat(Arrays.stream(all).distinct().count()).isEqualTo(400_000);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aWorkerIdWiderThanTheLayoutIsRefused() {
        SnowflakeGenerator generator = generator(Borrowing.WITHIN_RESERVATION, 1 << 20);
        assertThatThrownBy(generator::nextId).hasMessageContaining("does not fit the 20 worker bits");
        SnowflakeLayout seconds = new SnowflakeLayout(30, 20, 13, Unit.SECONDS, 0);
        assertThat(seconds.maxWorkerId()).isEqualTo((1 << 20) - 1);
    }

    @Test
    void leafsMillisecondLayoutBorrowsTheFollowingMillisecondsToo() {
        SnowflakeLayout leaf = SnowflakeLayout.leafDefault();
        SnowflakeGenerator generator = new SnowflakeGenerator(leaf, new FixedHolder(new WorkerLease(1023, 0,
                RESERVED_UNTIL)), clock, clock, new Random(7), Duration.ofMillis(5), Borrowing.WITHIN_RESERVATION);
        long[] ids = generator.nextIds(3 * 4096);
        long first = leaf.decode(ids[0]).timestampMillis();
        assertThat(first).isEqualTo(NOW);
        assertThat(leaf.decode(ids[ids.length - 1]).timestampMillis()).isBetween(NOW + 2, NOW + 3);
        for (int i = 1; i < ids.length; i++) {
            assertThat(ids[i]).isGreaterThan(ids[i - 1]);
            assertThat(leaf.decode(ids[i]).workerId()).isEqualTo(1023);
        }
        assertThat(clock.waits).isZero();
    }

    /**
     * A clock set back while IDs are borrowed: not visible against the last ID (ahead of the
     * clock anyway), so it is measured against the latest second the clock showed. Refused beyond
     * the tolerance, instead of borrowing up to the reservation and then waiting an hour there.
     */
    @Test
    void aClockSetBackWhileBorrowingIsRefusedBeyondTheToleranceAndCountedWithin() {
        FakeClock moving = new FakeClock(NOW);
        SnowflakeGenerator generator = new SnowflakeGenerator(LAYOUT, new FixedWorkerIdHolder(new WorkerLease(4, 0,
                RESERVED_UNTIL)), moving, moving, new Random(7), Duration.ofMillis(5), Borrowing.WITHIN_RESERVATION);
        long borrowed = generator.nextIds(2 * 4096)[2 * 4096 - 1];
        long secondStart = LAYOUT.millisOf(LAYOUT.elapsed(NOW));

        moving.set(secondStart - 5); // 5 ms before the start of the second the clock showed: tolerated
        long afterSmallStep = generator.nextId();
        assertThat(afterSmallStep).isGreaterThan(borrowed);
        assertThat(generator.clockBackwardsEvents()).isEqualTo(1);

        moving.set(NOW - 3_600_000); // an hour back
        assertThatThrownBy(generator::nextId).isInstanceOfSatisfying(ClockMovedBackwardsException.class,
                e -> assertThat(e.backwardsMillis()).isEqualTo(secondStart - (NOW - 3_600_000)));
        assertThat(moving.tickCount() + moving.sleepCount()).as("refused at once, no wait").isZero();
        assertThat(generator.clockBackwardsEvents()).isEqualTo(2);

        moving.set(NOW + 1); // back in the second: issuing goes on after the last ID
        assertThat(generator.nextId()).isEqualTo(afterSmallStep + 1);
    }

    @Test
    void unboundedBorrowingGoesOnThroughAClockSetBackAndCountsIt() {
        FakeClock moving = new FakeClock(NOW);
        SnowflakeGenerator generator = new SnowflakeGenerator(LAYOUT, FixedWorkerIdHolder.forever(6), moving, moving,
                new Random(7), Duration.ofMillis(5), Borrowing.UNBOUNDED);
        long before = generator.nextIds(5000)[4999];
        moving.set(NOW - 3_600_000);
        assertThat(generator.nextId()).isEqualTo(before + 1);
        assertThat(generator.clockBackwardsEvents()).isEqualTo(1);
    }

    /**
     * The holder modes under load: eight threads borrowing with a reservation that follows the
     * clock (6 s ahead, as the holders renew it) and a clock that moves only when the generator
     * waits. No duplicate, and no ID in a second that ends after the reservation.
     */
    @Test
    void eightThreadsBorrowingWithinAReservationThatFollowsTheClockIssueNoDuplicate() throws Exception {
        FakeClock moving = new FakeClock(NOW);
        WorkerIdHolder holder = new WorkerIdHolder() {
            @Override
            public void start() {
            }

            @Override
            public WorkerLease lease() {
                return new WorkerLease(12, 0, moving.millis() + 6_000);
            }

            @Override
            public void release(long lastIssuedMillis) {
            }

            @Override
            public void close() {
            }
        };
        SnowflakeGenerator generator = new SnowflakeGenerator(LAYOUT, holder, moving, moving, new Random(7),
                Duration.ofMillis(5), Borrowing.WITHIN_RESERVATION);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                results.add(threads.submit(() -> {
                    long[] ids = new long[40_000];
                    for (int i = 0; i < ids.length; i += 8) {
                        if (thread % 2 == 0) {
                            System.arraycopy(generator.nextIds(8), 0, ids, i, 8);
                        } else {
                            for (int j = 0; j < 8; j++) {
                                ids[i + j] = generator.nextId();
                            }
                        }
                    }
                    return ids;
                }));
            }
            long[] all = new long[8 * 40_000];
            int filled = 0;
            for (Future<long[]> result : results) {
                long[] ids = result.get(60, TimeUnit.SECONDS);
                for (int i = 1; i < ids.length; i++) {
                    assertThat(ids[i]).isGreaterThan(ids[i - 1]);
                }
                System.arraycopy(ids, 0, all, filled, ids.length);
                filled += ids.length;
            }
            assertThat(Arrays.stream(all).distinct().count()).isEqualTo(8 * 40_000);
            long latestSecond = Arrays.stream(all).map(id -> LAYOUT.elapsed(LAYOUT.decode(id).timestampMillis()))
                    .max().orElseThrow();
            assertThat(LAYOUT.millisOf(latestSecond + 1)).as("never past the reservation")
                    .isLessThanOrEqualTo(moving.millis() + 6_000);
            assertThat(latestSecond).as("borrowed ahead of the clock").isGreaterThan(LAYOUT.elapsed(NOW));
        } finally {
            threads.shutdownNow();
        }
    }
}
