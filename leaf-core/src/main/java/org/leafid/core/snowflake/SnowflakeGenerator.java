package org.leafid.core.snowflake;


import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.random.RandomGenerator;
import org.leafid.core.IdGenerator;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.Sleeper;
import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.worker.WorkerLease;

/**
 * Issues snowflake IDs for the worker id its holder leases, in the holder's layout; thread-safe
 * and lock-free.
 *
 * <p>The last issued (elapsed unit, sequence) pair is one packed {@code long} advanced by
 * compare-and-set, so an ID is taken exactly when its state transition wins, and no two
 * threads can compose the same ID. A batch takes a whole range of sequences in one transition.
 *
 * <p>An ID at time unit {@code u} is issued only inside the lease: {@code u} starts at or after
 * {@code validFrom} and ends at or before {@code reservedUntil}, so that a restart, which waits
 * for the clock to pass the recorded reservation, can never issue in a unit this process used.
 * With borrow-ahead, a unit whose sequences are spent is followed by the next unit at once
 * instead of a wait for the clock, within the same bound ({@link Borrowing#UNBOUNDED}, for worker
 * ids used by one process only, lifts it).
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
    private final Borrowing borrowing;
    private final boolean borrowAhead;
    private final boolean unboundedBorrowing;
    private final int sequenceBits;
    private final long maxSequence;
    private final int startOffsetBound;
    private final LongAdder clockBackwardsEvents = new LongAdder();
    /** IDs handed out, counted where they are made, so an application embedding Leaf reads the same as the server. */
    private final LongAdder issued = new LongAdder();

    /** {@code elapsedUnits << sequenceBits | sequence} of the last ID issued. */
    private final AtomicLong last = new AtomicLong();

    /**
     * Borrowing only: the latest time unit the clock was read in. Borrowed IDs are ahead of the
     * clock by design, so a clock stepping back does not show against {@link #last}; it shows
     * against this. Written about once per unit, by the first thread to read the clock in it.
     */
    private final AtomicLong clockUnit = new AtomicLong();

    public SnowflakeGenerator(SnowflakeLayout layout, WorkerIdHolder holder, InstantSource clock,
            Sleeper sleeper, RandomGenerator random, Duration maxBackwardsWait) {
        this(layout, holder, clock, sleeper, random, maxBackwardsWait, Borrowing.NONE);
    }

    /** @param borrowing what happens when a time unit's sequences are spent, see {@link Borrowing} */
    public SnowflakeGenerator(SnowflakeLayout layout, WorkerIdHolder holder, InstantSource clock,
            Sleeper sleeper, RandomGenerator random, Duration maxBackwardsWait, Borrowing borrowing) {
        if (maxBackwardsWait.isNegative()) {
            throw new IllegalArgumentException("maxBackwardsWait must not be negative: " + maxBackwardsWait);
        }
        this.layout = layout;
        this.holder = holder;
        this.clock = clock;
        this.sleeper = sleeper;
        this.random = random;
        this.maxBackwardsWaitMillis = maxBackwardsWait.toMillis();
        this.borrowing = Objects.requireNonNull(borrowing, "borrowing");
        // Two plain final fields for claim(), the hot path: read there as before, no switch per ID.
        this.borrowAhead = borrowing != Borrowing.NONE;
        this.unboundedBorrowing = borrowing == Borrowing.UNBOUNDED;
        this.sequenceBits = layout.sequenceBits();
        this.maxSequence = layout.maxSequence();
        this.startOffsetBound = (int) Math.min(START_OFFSET_BOUND, maxSequence + 1);
    }

    @Override
    public long nextId() {
        for (;;) {
            long first = claim(1);
            WorkerLease lease = holder.lease();
            if (claimedWithin(first, lease)) {
                issued.increment();
                return layout.compose(first >>> sequenceBits, lease.workerId(), first & maxSequence);
            }
        }
    }

    /**
     * Whether a claim's time unit lies inside the lease read after it. The claim checked the lease
     * it read, but the holder may have lost that id and taken another since (zk_recycle, redis):
     * a time before the new lease's start may carry IDs of that id's earlier holder. Such a claim
     * is dropped (its sequences go unused) and the next one meets the new lease, which waits or
     * refuses. With the same lease this always holds: a renewal only moves the reservation on.
     */
    private boolean claimedWithin(long first, WorkerLease lease) {
        long unit = first >>> sequenceBits;
        return layout.millisOf(unit) >= lease.validFromMillis()
                && (unboundedBorrowing || layout.millisOf(unit + 1) <= lease.reservedUntilMillis());
    }

    /**
     * The next {@code count} IDs, increasing. Each transition takes as many sequences of one time
     * unit as the batch still needs, so a batch costs one compare-and-set per unit it spans.
     */
    public long[] nextIds(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        long[] ids = new long[count];
        int filled = 0;
        while (filled < count) {
            int wanted = count - filled;
            long first = claim(wanted);
            WorkerLease lease = holder.lease();
            if (!claimedWithin(first, lease)) {
                continue; // see claimedWithin
            }
            int taken = taken(first, wanted);
            long elapsed = first >>> sequenceBits;
            int workerId = lease.workerId();
            long sequence = first & maxSequence;
            for (int i = 0; i < taken; i++) {
                ids[filled++] = layout.compose(elapsed, workerId, sequence + i);
            }
        }
        issued.add(count);
        return ids;
    }

    /** How many of {@code wanted} sequences a claim that starts at {@code first} takes: the rest of its unit at most. */
    private int taken(long first, int wanted) {
        return (int) Math.min(wanted, maxSequence - (first & maxSequence) + 1);
    }

    /**
     * Moves the state past up to {@code wanted} IDs of one time unit (see {@link #taken}) and
     * returns the packed state of the first.
     */
    private long claim(int wanted) {
        for (;;) {
            // 1. Read the state (and, borrowing, the latest clock unit) before the clock: then a
            //    timestamp behind it really is the clock going back, and a state that moves on
            //    after this read is caught by the CAS.
            long previous = last.get();
            if (previous == CLOSED) {
                throw new WorkerIdUnavailableException("The snowflake generator is closed; the server is stopping");
            }
            long seenUnit = borrowAhead ? clockUnit.get() : 0;
            long now = clock.millis();
            WorkerLease lease = holder.lease();
            if (lease.workerId() > layout.maxWorkerId()) {
                throw new WorkerIdUnavailableException("Worker id " + lease.workerId() + " does not fit the "
                        + layout.workerBits() + " worker bits of layout " + layout.describe());
            }
            long lastElapsed = previous >>> sequenceBits;
            long elapsed = layout.elapsed(now);
            if (borrowAhead) {
                followClockWhileBorrowing(seenUnit, elapsed, now);
            }
            long next;
            if (elapsed > lastElapsed) {
                next = (elapsed << sequenceBits) | random.nextInt(startOffsetBound);
            } else if (elapsed == lastElapsed || borrowAhead) {
                // Borrowing, the last unit may be ahead of the clock: go on from it, never back.
                if ((previous & maxSequence) == maxSequence) {
                    if (!borrowAhead) {
                        waitForClock(); // every sequence of this unit issued: wait for the next unit
                        continue;
                    }
                    next = (lastElapsed + 1) << sequenceBits;
                } else {
                    next = previous + 1;
                }
            } else {
                waitOutBackwardsStep(layout.millisOf(lastElapsed), now);
                continue;
            }
            // 2. Only inside the lease.
            if (!insideLease(next >>> sequenceBits, elapsed, lease, now)) {
                continue;
            }
            // 3. Publish; losing the race means another thread took this state, so start over.
            long end = next + taken(next, wanted) - 1;
            if (last.compareAndSet(previous, end)) {
                return next;
            }
        }
    }

    /**
     * Whether time unit {@code unit} lies inside the lease: earlier times may carry a previous
     * holder's IDs, later ones are not yet recorded and could repeat after a crash. False after
     * waiting for the clock, when the claim must start over; outside the lease for good, throws.
     *
     * @param elapsed the unit the clock is in
     */
    private boolean insideLease(long unit, long elapsed, WorkerLease lease, long now) {
        if (layout.millisOf(unit) < lease.validFromMillis()) {
            if (now < lease.validFromMillis()) {
                throw outsideLease(lease, now);
            }
            waitForClock(); // a unit of seconds that began before the lease: wait for the next one
            return false;
        }
        if (!unboundedBorrowing && layout.millisOf(unit + 1) > lease.reservedUntilMillis()) {
            if (unit > elapsed && lease.covers(now)) {
                waitForClock(); // borrowed up to the reservation: wait for the clock and its renewal
                return false;
            }
            throw outsideLease(lease, now);
        }
        return true;
    }

    /**
     * Stops issuing and releases the worker id with the time of the last ID issued (the last ms
     * of its unit), so that the holder can record exactly how far IDs went. Swapping in
     * {@code CLOSED} makes the state replaced the last one ever published.
     */
    @Override
    public void close() {
        long previous = last.getAndSet(CLOSED);
        if (previous != CLOSED) {
            holder.release(layout.millisOf((previous >>> sequenceBits) + 1) - 1);
        }
    }

    /** How often the clock was found behind the last issued ID (waited out or refused). */
    /** How many IDs this generator has handed out, since start. */
    public long issuedCount() {
        return issued.sum();
    }

    public long clockBackwardsEvents() {
        return clockBackwardsEvents.sum();
    }

    /** How far the time of the last ID issued is ahead of the clock, in ms; 0 unless borrowing. */
    public long borrowedMillis() {
        long state = last.get();
        if (state == CLOSED || state == 0) {
            return 0;
        }
        return Math.max(0, layout.millisOf(state >>> sequenceBits) - clock.millis());
    }

    public SnowflakeLayout layout() {
        return layout;
    }

    public Borrowing borrowing() {
        return borrowing;
    }

    /** A tick of the clock: spun for milliseconds, slept for units of seconds. */
    private void waitForClock() {
        if (layout.unit() == SnowflakeLayout.Unit.MILLISECONDS) {
            sleeper.awaitTick();
            return;
        }
        try {
            sleeper.sleepMillis(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LeafInterruptedException("the next second", e);
        }
    }

    /**
     * The clock rule while borrowing. The state goes on from the last (borrowed) unit whatever the
     * clock says, so a step back needs no wait to stay unique; within {@code maxBackwardsWait} of
     * the start of the latest unit the clock showed it is only counted. Beyond it is refused as
     * without borrowing: otherwise, in the holder modes, issuing would run into the reservation
     * and then wait (every request thread) for as long as the clock was set back. Unbounded
     * borrowing (a disposable worker id, which no later process can hold) depends on no clock
     * and goes on, counting the event, as uid-generator's cached generator does.
     */
    private void followClockWhileBorrowing(long seenUnit, long elapsed, long now) {
        if (elapsed > seenUnit) {
            clockUnit.accumulateAndGet(elapsed, Math::max); // once per unit; a non-capturing reference allocates nothing
        } else if (elapsed < seenUnit) {
            clockBackwardsEvents.increment();
            long unitStart = layout.millisOf(seenUnit);
            if (unitStart - now > maxBackwardsWaitMillis && !unboundedBorrowing) {
                throw new ClockMovedBackwardsException(unitStart, now);
            }
        }
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
