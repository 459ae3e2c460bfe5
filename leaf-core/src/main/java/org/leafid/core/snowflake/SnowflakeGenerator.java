package org.leafid.core.snowflake;

import static org.leafid.core.snowflake.SnowflakeLayout.MAX_SEQUENCE;
import static org.leafid.core.snowflake.SnowflakeLayout.SEQUENCE_BITS;

import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.random.RandomGenerator;
import org.leafid.core.ClockMovedBackwardsException;
import org.leafid.core.IdGenerator;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.Sleeper;
import org.leafid.core.WorkerIdUnavailableException;

/**
 * Issues snowflake IDs for the worker id its holder leases; thread-safe and lock-free.
 *
 * <p>The last issued (elapsed millisecond, sequence) pair is one packed {@code long} advanced by
 * compare-and-set, so an ID is taken exactly when its state transition wins, and no two
 * threads can compose the same ID.
 */
public final class SnowflakeGenerator implements IdGenerator, AutoCloseable {

    /** The state after {@link #close()}: no compare-and-set from an issuing state can follow it. */
    private static final long CLOSED = -1L;

    /** Leaf starts each millisecond at a random sequence below this, so {@code id % n} spreads. */
    static final int START_OFFSET_BOUND = 100;

    private final SnowflakeLayout layout;
    private final WorkerIdHolder holder;
    private final InstantSource clock;
    private final Sleeper sleeper;
    private final RandomGenerator random;
    private final long maxBackwardsWaitMillis;
    private final LongAdder clockBackwardsEvents = new LongAdder();

    /** {@code elapsedMillis << SEQUENCE_BITS | sequence} of the last ID issued. */
    private final AtomicLong last = new AtomicLong();

    public SnowflakeGenerator(SnowflakeLayout layout, WorkerIdHolder holder, InstantSource clock,
            Sleeper sleeper, RandomGenerator random, Duration maxBackwardsWait) {
        if (maxBackwardsWait.isNegative()) {
            throw new IllegalArgumentException("maxBackwardsWait must not be negative: " + maxBackwardsWait);
        }
        this.layout = layout;
        this.holder = holder;
        this.clock = clock;
        this.sleeper = sleeper;
        this.random = random;
        this.maxBackwardsWaitMillis = maxBackwardsWait.toMillis();
    }

    @Override
    public long nextId() {
        for (;;) {
            // 1. Read the state before the clock: then a timestamp behind it really is the clock
            //    going back, and a state that moves on after this read is caught by the CAS.
            long previous = last.get();
            if (previous == CLOSED) {
                throw new WorkerIdUnavailableException("The snowflake generator is closed; the server is stopping");
            }
            long now = clock.millis();
            WorkerLease lease = holder.lease();
            long lastElapsed = previous >>> SEQUENCE_BITS;
            long elapsed = layout.elapsed(now);
            long next;
            if (elapsed > lastElapsed) {
                next = (elapsed << SEQUENCE_BITS) | random.nextInt(START_OFFSET_BOUND);
            } else if (elapsed == lastElapsed) {
                if ((previous & MAX_SEQUENCE) == MAX_SEQUENCE) {
                    sleeper.awaitTick(); // 4,096 issued this millisecond: wait for the next one
                    continue;
                }
                next = previous + 1;
            } else {
                waitOutBackwardsStep(layout.twepoch() + lastElapsed, now);
                continue;
            }
            // 2. Only inside the lease: earlier times may carry a previous holder's IDs, later
            //    ones are not yet recorded and could repeat after a crash.
            if (!lease.covers(now)) {
                throw outsideLease(lease, now);
            }
            // 3. Publish; losing the race means another thread took this state, so start over.
            if (last.compareAndSet(previous, next)) {
                return layout.compose(next >>> SEQUENCE_BITS, lease.workerId(), next & MAX_SEQUENCE);
            }
        }
    }

    /** The next {@code count} IDs, increasing; at most 4,096 fit in one millisecond. */
    public long[] nextIds(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = nextId();
        }
        return ids;
    }

    /**
     * Stops issuing and releases the worker id with the time of the last ID issued, so that the
     * holder can record exactly how far IDs went. Swapping in {@code CLOSED} makes the state
     * replaced the last one ever published.
     */
    @Override
    public void close() {
        long previous = last.getAndSet(CLOSED);
        if (previous != CLOSED) {
            holder.release(layout.twepoch() + (previous >>> SEQUENCE_BITS));
        }
    }

    /** How often the clock was found behind the last issued ID (waited out or refused). */
    public long clockBackwardsEvents() {
        return clockBackwardsEvents.sum();
    }

    public SnowflakeLayout layout() {
        return layout;
    }

    private void waitOutBackwardsStep(long lastMillis, long now) {
        clockBackwardsEvents.increment();
        long behind = lastMillis - now;
        if (behind > maxBackwardsWaitMillis) {
            throw new ClockMovedBackwardsException(lastMillis, now);
        }
        try {
            sleeper.sleepMillis(behind);
        } catch (InterruptedException e) {
            throw new LeafInterruptedException("the clock to catch up", e);
        }
        long after = clock.millis();
        if (after < lastMillis) {
            throw new ClockMovedBackwardsException(lastMillis, after);
        }
    }

    private RuntimeException outsideLease(WorkerLease lease, long now) {
        if (now < lease.validFromMillis()) {
            clockBackwardsEvents.increment();
            return new ClockMovedBackwardsException(lease.validFromMillis(), now);
        }
        holder.reservationLapsed(); // e.g. after the clock was set right from a long step back
        return new WorkerIdUnavailableException("The time reservation of worker id " + lease.workerId()
                + " ended at " + lease.reservedUntilMillis() + " (clock now " + now
                + "): it could not be renewed; see the log for why recording it failed");
    }
}
