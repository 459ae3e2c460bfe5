package org.leafid.core.snowflake;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Objects;

/**
 * The bit layout {@code 0 | time | worker id | sequence}: Leaf's 41/10/12 bits of milliseconds
 * since twepoch by default, or any widths adding up to 63, in milliseconds or seconds (Baidu
 * uid-generator's layouts). All bit arithmetic of snowflake IDs lives here.
 *
 * <p>The static constants describe Leaf's layout, whose 10 worker bits are what the {@code zk_*},
 * {@code mysql} and {@code local} modes hand out; an instance's own layout is this object.
 */
public final class SnowflakeLayout {

    public static final long DEFAULT_TWEPOCH = 1288834974657L;
    /** uid-generator's epoch, 2016-05-20 (UTC), in ms. */
    public static final long UID_GENERATOR_EPOCH = LocalDate.of(2016, 5, 20).atStartOfDay(ZoneOffset.UTC)
            .toInstant().toEpochMilli();

    public static final int TIMESTAMP_BITS = 41;
    public static final int WORKER_ID_BITS = 10;
    public static final int SEQUENCE_BITS = 12;

    public static final long MAX_TIMESTAMP = (1L << TIMESTAMP_BITS) - 1;
    public static final int MAX_WORKER_ID = (1 << WORKER_ID_BITS) - 1;
    public static final int MAX_SEQUENCE = (1 << SEQUENCE_BITS) - 1;

    /** The widest worker field: worker ids are {@code int}s. */
    public static final int MAX_WORKER_BITS = 31;

    /** The unit of the time field. */
    public enum Unit {
        MILLISECONDS(1, "ms"), SECONDS(1000, "s");

        private final long millis;
        private final String symbol;

        Unit(long millis, String symbol) {
            this.millis = millis;
            this.symbol = symbol;
        }

        public long millis() {
            return millis;
        }

        public String symbol() {
            return symbol;
        }
    }

    private final int timeBits;
    private final int workerBits;
    private final int sequenceBits;
    private final Unit unit;
    private final long twepoch;
    private final long maxTime;
    private final int maxWorkerId;
    private final long maxSequence;
    private final int timeShift;

    /** Leaf's layout (41/10/12, ms) with the given epoch. */
    public SnowflakeLayout(long twepoch) {
        this(TIMESTAMP_BITS, WORKER_ID_BITS, SEQUENCE_BITS, Unit.MILLISECONDS, twepoch);
    }

    /**
     * @param twepoch the epoch, in ms since 1970
     * @throws IllegalArgumentException when a width is below 1, the worker field is wider than
     *     {@value #MAX_WORKER_BITS} bits, the widths do not add up to 63, or the epoch is negative
     */
    public SnowflakeLayout(int timeBits, int workerBits, int sequenceBits, Unit unit, long twepoch) {
        if (timeBits < 1 || workerBits < 1 || sequenceBits < 1) {
            throw new IllegalArgumentException("every field needs at least 1 bit: " + timeBits + "/" + workerBits
                    + "/" + sequenceBits);
        }
        if (workerBits > MAX_WORKER_BITS) {
            throw new IllegalArgumentException("the worker field has at most " + MAX_WORKER_BITS + " bits: "
                    + workerBits);
        }
        // The sign bit stays 0: that is what keeps every ID positive.
        if (timeBits + workerBits + sequenceBits != Long.SIZE - 1) {
            throw new IllegalArgumentException("time, worker and sequence bits must add up to 63: " + timeBits + " + "
                    + workerBits + " + " + sequenceBits + " = " + (timeBits + workerBits + sequenceBits));
        }
        if (twepoch < 0) {
            throw new IllegalArgumentException("twepoch must not be negative: " + twepoch);
        }
        this.timeBits = timeBits;
        this.workerBits = workerBits;
        this.sequenceBits = sequenceBits;
        this.unit = unit;
        this.twepoch = twepoch;
        this.maxTime = (1L << timeBits) - 1;
        this.maxWorkerId = (int) ((1L << workerBits) - 1);
        this.maxSequence = (1L << sequenceBits) - 1;
        this.timeShift = sequenceBits + workerBits;
    }

    public static SnowflakeLayout leafDefault() {
        return new SnowflakeLayout(DEFAULT_TWEPOCH);
    }

    /**
     * uid-generator users' preset: 31 bits of seconds since 2016-05-20, 20 worker bits, 12 sequence
     * bits (until 2084). Not uid-generator's own default of 28 seconds bits, which ran out in 2025.
     */
    public static SnowflakeLayout uidGenerator() {
        return new SnowflakeLayout(31, 20, 12, Unit.SECONDS, UID_GENERATOR_EPOCH);
    }

    public int timeBits() {
        return timeBits;
    }

    public int workerBits() {
        return workerBits;
    }

    public int sequenceBits() {
        return sequenceBits;
    }

    public Unit unit() {
        return unit;
    }

    /** The epoch, in ms since 1970. */
    public long twepoch() {
        return twepoch;
    }

    /** The largest value of the time field, in units since the epoch. */
    public long maxTime() {
        return maxTime;
    }

    public int maxWorkerId() {
        return maxWorkerId;
    }

    public long maxSequence() {
        return maxSequence;
    }

    /**
     * Units since the epoch for a wall-clock time (whole units: a time inside a second is that
     * second).
     *
     * @throws TimestampOverflowException before the epoch or beyond the time field
     */
    public long elapsed(long epochMillis) {
        long elapsedMillis = epochMillis - twepoch;
        long elapsed = unit == Unit.MILLISECONDS ? elapsedMillis : Math.floorDiv(elapsedMillis, unit.millis);
        if (elapsedMillis < 0 || elapsed > maxTime) {
            throw overflow(epochMillis);
        }
        return elapsed;
    }

    private TimestampOverflowException overflow(long epochMillis) {
        return new TimestampOverflowException(epochMillis, twepoch, "Time " + epochMillis + " ms does not fit the "
                + timeBits() + " time bits (" + unit.symbol() + ") of layout " + describe() + " after the epoch "
                + twepoch + "; the layout ends at " + endsAt());
    }

    /** The wall-clock ms at which a unit since the epoch begins. */
    public long millisOf(long elapsed) {
        return twepoch + elapsed * unit.millis;
    }

    /** The ID for an elapsed time (from {@link #elapsed}), a worker id and a sequence. */
    public long compose(long elapsed, int workerId, long sequence) {
        return (elapsed << timeShift) | ((long) workerId << sequenceBits) | sequence;
    }

    /** The parts of an ID; any non-negative long decodes. */
    public SnowflakeId decode(long id) {
        if (id < 0) {
            throw new IllegalArgumentException("a snowflake ID is never negative: " + id);
        }
        long elapsed = id >>> timeShift;
        int workerId = (int) ((id >>> sequenceBits) & maxWorkerId);
        int sequence = (int) (id & maxSequence);
        return new SnowflakeId(id, millisOf(elapsed), workerId, sequence);
    }

    /** The last wall-clock millisecond an ID can carry. */
    public long lastRepresentableMillis() {
        return saturatedMillisOf(maxTime + 1) - 1;
    }

    /** When the layout ends: the first instant the time field cannot carry. */
    public Instant endsAt() {
        return Instant.ofEpochMilli(saturatedMillisOf(maxTime + 1));
    }

    /** {@code 41/10/12 ms}: widths and unit, as decode and the start-up log show them. */
    public String describe() {
        return timeBits + "/" + workerBits + "/" + sequenceBits + " " + unit.symbol;
    }

    private long saturatedMillisOf(long elapsed) {
        long span = Math.multiplyHigh(elapsed, unit.millis) != 0 ? Long.MAX_VALUE : elapsed * unit.millis;
        return span > Long.MAX_VALUE - twepoch || span < 0 ? Long.MAX_VALUE : twepoch + span;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SnowflakeLayout that && timeBits == that.timeBits && workerBits == that.workerBits
                && sequenceBits == that.sequenceBits && unit == that.unit && twepoch == that.twepoch;
    }

    @Override
    public int hashCode() {
        return Objects.hash(timeBits, workerBits, sequenceBits, unit, twepoch);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "SnowflakeLayout[%s, epoch %s]", describe(),
                Instant.ofEpochMilli(twepoch));
    }
}
