package org.leafid.core;

/** The clock is before the epoch or beyond what 41 bits of milliseconds since it can hold. */
public final class TimestampOverflowException extends LeafException {

    private final long nowMillis;
    private final long twepoch;

    public TimestampOverflowException(long nowMillis, long twepoch) {
        super("Time " + nowMillis + " ms does not fit 41 bits after twepoch " + twepoch);
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
