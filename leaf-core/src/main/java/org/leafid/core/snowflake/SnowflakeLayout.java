package org.leafid.core.snowflake;

import org.leafid.core.TimestampOverflowException;

/**
 * The bit layout {@code 0 | 41 bits ms since twepoch | 10 bits worker id | 12 bits sequence}.
 * All bit arithmetic of snowflake IDs lives here.
 */
public record SnowflakeLayout(long twepoch) {

    public static final long DEFAULT_TWEPOCH = 1288834974657L;

    public static final int TIMESTAMP_BITS = 41;
    public static final int WORKER_ID_BITS = 10;
    public static final int SEQUENCE_BITS = 12;

    public static final long MAX_TIMESTAMP = (1L << TIMESTAMP_BITS) - 1;
    public static final int MAX_WORKER_ID = (1 << WORKER_ID_BITS) - 1;
    public static final int MAX_SEQUENCE = (1 << SEQUENCE_BITS) - 1;

    static final int WORKER_ID_SHIFT = SEQUENCE_BITS;
    static final int TIMESTAMP_SHIFT = SEQUENCE_BITS + WORKER_ID_BITS;

    static {
        // The sign bit stays 0: that is what keeps every ID positive.
        if (1 + TIMESTAMP_BITS + WORKER_ID_BITS + SEQUENCE_BITS != Long.SIZE) {
            throw new AssertionError("snowflake layout must add up to 64 bits");
        }
    }

    public SnowflakeLayout {
        if (twepoch < 0) {
            throw new IllegalArgumentException("twepoch must not be negative: " + twepoch);
        }
    }

    public static SnowflakeLayout leafDefault() {
        return new SnowflakeLayout(DEFAULT_TWEPOCH);
    }

    /**
     * Milliseconds since twepoch for a wall-clock time.
     *
     * @throws TimestampOverflowException before twepoch or beyond 41 bits
     */
    public long elapsed(long epochMillis) {
        long elapsed = epochMillis - twepoch;
        if (elapsed < 0 || elapsed > MAX_TIMESTAMP) {
            throw new TimestampOverflowException(epochMillis, twepoch);
        }
        return elapsed;
    }

    /** The ID for an elapsed time (from {@link #elapsed}), a worker id and a sequence. */
    public long compose(long elapsedMillis, int workerId, long sequence) {
        return (elapsedMillis << TIMESTAMP_SHIFT) | ((long) workerId << WORKER_ID_SHIFT) | sequence;
    }

    /** The parts of an ID; any non-negative long decodes. */
    public SnowflakeId decode(long id) {
        if (id < 0) {
            throw new IllegalArgumentException("a snowflake ID is never negative: " + id);
        }
        long elapsed = id >>> TIMESTAMP_SHIFT;
        int workerId = (int) ((id >>> WORKER_ID_SHIFT) & MAX_WORKER_ID);
        int sequence = (int) (id & MAX_SEQUENCE);
        return new SnowflakeId(id, twepoch + elapsed, workerId, sequence);
    }

    /** The last wall-clock millisecond an ID can carry. */
    public long lastRepresentableMillis() {
        return twepoch + MAX_TIMESTAMP;
    }
}
