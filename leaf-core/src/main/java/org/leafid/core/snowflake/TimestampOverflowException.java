package org.leafid.core.snowflake;

import org.leafid.core.LeafException;

/**
 * The clock is before the layout's epoch or beyond what its time field can hold. The layout writes
 * the message, so that this exception needs nothing of the layout that throws it.
 */
public final class TimestampOverflowException extends LeafException {

    private final long nowMillis;
    private final long twepoch;

    public TimestampOverflowException(long nowMillis, long twepoch, String message) {
        super(message);
        this.nowMillis = nowMillis;
        this.twepoch = twepoch;
    }

    public long nowMillis() {
        return nowMillis;
    }

    public long twepoch() {
        return twepoch;
    }
}
