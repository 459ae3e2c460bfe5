package org.leafid.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.leafid.core.snowflake.SnowflakeLayout.MAX_TIMESTAMP;

import java.time.Duration;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.leafid.testing.FakeClock;
import org.leafid.core.testing.FixedWorkerIdHolder;
import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.worker.WorkerLease;

class SnowflakeGeneratorTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final int WORKER_ID = 7;
    private static final Duration MAX_BACKWARDS_WAIT = Duration.ofMillis(5);

    private final SnowflakeLayout layout = SnowflakeLayout.leafDefault();
    private final FakeClock clock = new FakeClock(T0);
    private final FixedWorkerIdHolder holder = FixedWorkerIdHolder.forever(WORKER_ID);
    private final SnowflakeGenerator generator = generator(holder);

    @Test
    void issuesIncreasingIdsCarryingTheClockAndTheWorkerId() {
        long previous = -1;
        for (int i = 0; i < 100; i++) {
            long id = generator.nextId();
            SnowflakeId decoded = layout.decode(id);

            assertThat(id).isGreaterThan(previous);
            assertThat(decoded.timestampMillis()).isEqualTo(T0);
            assertThat(decoded.workerId()).isEqualTo(WORKER_ID);
            previous = id;
        }
    }

    @Test
    void eachMillisecondStartsAtARandomSequenceBelowOneHundred() {
        Set<Integer> firstSequences = new HashSet<>();
        for (int ms = 0; ms < 500; ms++) {
            firstSequences.add(layout.decode(generator.nextId()).sequence());
            clock.advance(1);
        }

        assertThat(firstSequences).allSatisfy(sequence -> assertThat(sequence).isBetween(0, 99));
        // A constant start would make id % n uneven; 500 draws from 100 values hit many of them.
        assertThat(firstSequences).hasSizeGreaterThan(50);
    }

    @Test
    void lastRepresentableMillisecondStillIssuesAPositiveId() {
        clock.set(layout.twepoch() + MAX_TIMESTAMP);

        long id = generator.nextId();

        assertThat(id).isPositive();
        assertThat(layout.decode(id).timestampMillis()).isEqualTo(layout.twepoch() + MAX_TIMESTAMP);
    }

    @Test
    void millisecondBeyondFortyOneBitsIsRefusedNotWrapped() {
        clock.set(layout.twepoch() + MAX_TIMESTAMP);
        long last = generator.nextId();
        clock.advance(1);

        assertThatThrownBy(generator::nextId)
                .isInstanceOf(TimestampOverflowException.class)
                .satisfies(e -> assertThat(((TimestampOverflowException) e).nowMillis())
                        .isEqualTo(layout.twepoch() + (1L << 41)));
        assertThat(last).isPositive();
    }

    @Test
    void clockBeforeTwepochIsRefused() {
        clock.set(layout.twepoch() - 1);

        assertThatThrownBy(generator::nextId).isInstanceOf(TimestampOverflowException.class);
    }

    @Test
    void clockBackThreeMillisIsWaitedOutWithoutReusingAnId() {
        long last = 0;
        for (int i = 0; i < 3; i++) {
            last = generator.nextId();
        }
        clock.stepBack(3);

        long next = generator.nextId();

        // The wait moved the fake clock: exactly the 3 ms it was behind, in one sleep.
        assertThat(clock.sleptMillis()).isEqualTo(3);
        assertThat(clock.millis()).isEqualTo(T0);
        assertThat(generator.clockBackwardsEvents()).isEqualTo(1);
        assertThat(next).isGreaterThan(last);
        // Back at the last issued millisecond, the sequence continues: the (time, sequence) pair is new.
        SnowflakeId lastDecoded = layout.decode(last);
        SnowflakeId nextDecoded = layout.decode(next);
        assertThat(nextDecoded.timestampMillis()).isEqualTo(lastDecoded.timestampMillis());
        assertThat(nextDecoded.sequence()).isEqualTo(lastDecoded.sequence() + 1);
    }

    @Test
    void clockBackExactlyTheToleranceIsWaitedOut() {
        long last = generator.nextId();
        clock.stepBack(5);

        assertThat(generator.nextId()).isGreaterThan(last);
        assertThat(clock.sleptMillis()).isEqualTo(5);
    }

    @Test
    void clockBackOneMillisBeyondTheToleranceIsRefused() {
        generator.nextId();
        clock.stepBack(6);

        assertThatThrownBy(generator::nextId).isInstanceOf(ClockMovedBackwardsException.class);
        assertThat(clock.sleepCount()).isZero();
    }

    @Test
    void clockBackTenMillisIsRefusedUntilTheClockCatchesUp() {
        long last = generator.nextId();
        clock.stepBack(10);

        assertThatThrownBy(generator::nextId)
                .isInstanceOf(ClockMovedBackwardsException.class)
                .satisfies(e -> {
                    ClockMovedBackwardsException back = (ClockMovedBackwardsException) e;
                    assertThat(back.lastMillis()).isEqualTo(T0);
                    assertThat(back.nowMillis()).isEqualTo(T0 - 10);
                    assertThat(back.backwardsMillis()).isEqualTo(10);
                });
        // Refused outright: no waiting on a step back that is too large.
        assertThat(clock.sleepCount()).isZero();
        assertThat(generator.clockBackwardsEvents()).isEqualTo(1);

        // Still behind: still refused, and counted again.
        clock.advance(2);
        assertThatThrownBy(generator::nextId).isInstanceOf(ClockMovedBackwardsException.class);
        assertThat(generator.clockBackwardsEvents()).isEqualTo(2);

        clock.set(T0 + 1);
        long resumed = generator.nextId();
        assertThat(resumed).isGreaterThan(last);
        assertThat(layout.decode(resumed).timestampMillis()).isEqualTo(T0 + 1);
    }

    @Test
    void spentMillisecondMovesOnToTheNextOne() {
        // Only awaitTick moves this clock: every millisecond change below is the generator waiting.
        TreeMap<Long, int[]> perMillisecond = new TreeMap<>(); // timestamp -> {count, first, last}
        long previous = -1;
        for (int i = 0; i < 20_000; i++) {
            long id = generator.nextId();
            assertThat(id).isGreaterThan(previous);
            previous = id;
            SnowflakeId decoded = layout.decode(id);
            int[] stats = perMillisecond.computeIfAbsent(decoded.timestampMillis(),
                    ms -> new int[] {0, decoded.sequence(), -1});
            // Within a millisecond the sequence counts up by one, from its random start.
            assertThat(decoded.sequence()).isEqualTo(stats[1] + stats[0]);
            stats[0]++;
            stats[2] = decoded.sequence();
        }

        assertThat(perMillisecond.firstKey()).isEqualTo(T0);
        assertThat(perMillisecond.lastKey()).isEqualTo(T0 + perMillisecond.size() - 1); // no millisecond skipped
        assertThat(clock.tickCount()).isEqualTo(perMillisecond.size() - 1);
        assertThat(perMillisecond.size()).isGreaterThanOrEqualTo(5);
        perMillisecond.forEach((ms, stats) -> {
            assertThat(stats[0]).isLessThanOrEqualTo(4096);
            assertThat(stats[1]).isBetween(0, 99);
        });
        // Every millisecond but the last one in progress was used up to sequence 4095.
        perMillisecond.headMap(perMillisecond.lastKey()).forEach((ms, stats) -> {
            assertThat(stats[2]).isEqualTo(4095);
            assertThat(stats[0]).isEqualTo(4096 - stats[1]);
        });
    }

    @Test
    void clockBeforeTheLeaseIsClockMovedBackwards() {
        holder.setLease(new WorkerLease(WORKER_ID, T0 + 1_000, T0 + 2_000));
        clock.set(T0 + 999);

        assertThatThrownBy(generator::nextId)
                .isInstanceOf(ClockMovedBackwardsException.class)
                .satisfies(e -> assertThat(((ClockMovedBackwardsException) e).lastMillis()).isEqualTo(T0 + 1_000));
        assertThat(generator.clockBackwardsEvents()).isEqualTo(1);

        clock.set(T0 + 1_000);
        assertThat(layout.decode(generator.nextId()).timestampMillis()).isEqualTo(T0 + 1_000);
    }

    @Test
    void clockAtOrPastTheReservationIsWorkerIdUnavailable() {
        holder.setLease(new WorkerLease(WORKER_ID, T0 + 1_000, T0 + 2_000));
        clock.set(T0 + 1_999);
        long last = generator.nextId();
        clock.set(T0 + 2_000);

        assertThatThrownBy(generator::nextId).isInstanceOf(WorkerIdUnavailableException.class);
        assertThat(generator.clockBackwardsEvents()).isZero();

        // A renewal that lands later makes issuing resume.
        holder.setLease(new WorkerLease(WORKER_ID, T0 + 1_000, T0 + 3_000));
        assertThat(generator.nextId()).isGreaterThan(last);
    }

    @Test
    void unheldWorkerIdIssuesNothing() {
        SnowflakeGenerator unheld = generator(new FixedWorkerIdHolder(null));

        assertThatThrownBy(unheld::nextId).isInstanceOf(WorkerIdUnavailableException.class);
    }

    @Test
    void closeStopsIssuingAndReleasesWithTheLastIssuedTime() {
        generator.nextId();
        clock.advance(7);
        long last = generator.nextId();
        clock.advance(100);

        generator.close();
        generator.close();

        assertThat(holder.releasedAfterMillis()).isEqualTo(layout.decode(last).timestampMillis()).isEqualTo(T0 + 7);
        assertThat(holder.releaseCount()).isEqualTo(1);
        assertThatThrownBy(generator::nextId).isInstanceOf(WorkerIdUnavailableException.class);
    }

    @Test
    void closeBeforeAnyIdReleasesAtATimeBeforeEveryId() {
        generator.close();

        assertThat(holder.releasedAfterMillis()).isLessThan(T0);
        assertThat(holder.closed()).isTrue();
    }

    @Test
    void negativeMaxBackwardsWaitIsRejected() {
        assertThatThrownBy(() -> new SnowflakeGenerator(layout, holder, clock, clock, new Random(1),
                Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * The lease can change between the claim, which checks the time against it, and the ID's
     * composition, which reads the worker id: the old id lost and another taken (zk_recycle, redis).
     * The claimed time must then be checked against the new lease too: below its start, an earlier
     * holder of the new id may have issued it.
     */
    @Test
    void aLeaseTakenBetweenTheClaimAndTheIdIsNotUsedForATimeBeforeItsStart() {
        WorkerLease old = new WorkerLease(WORKER_ID, 0, T0 + 6_000);
        WorkerLease taken = new WorkerLease(WORKER_ID + 1, T0 + 10_000, T0 + 16_000);
        int[] reads = {0};
        WorkerIdHolder holderChangingAfterTheFirstRead = new WorkerIdHolder() {
            @Override
            public void start() {
            }

            @Override
            public WorkerLease lease() {
                return reads[0]++ == 0 ? old : taken;
            }

            @Override
            public void release(long lastIssuedMillis) {
            }

            @Override
            public void close() {
            }
        };
        SnowflakeGenerator racing = generator(holderChangingAfterTheFirstRead);

        // Refused as any clock behind its lease's start is (503), instead of an ID of the new id at T0.
        assertThatThrownBy(racing::nextId).as("a time of the new id's earlier holder")
                .isInstanceOf(ClockMovedBackwardsException.class);
        reads[0] = 0;
        assertThatThrownBy(() -> racing.nextIds(3)).isInstanceOf(ClockMovedBackwardsException.class);
    }

    private SnowflakeGenerator generator(WorkerIdHolder workerIdHolder) {
        return new SnowflakeGenerator(layout, workerIdHolder, clock, clock, new Random(20240601L), MAX_BACKWARDS_WAIT);
    }
}
