package org.leafid.core;

import org.leafid.core.snowflake.SnowflakeLayout;

/** The clock is before the layout's epoch or beyond what its time field can hold. */
public final class TimestampOverflowException extends LeafException {

    private final long nowMillis;
    private final long twepoch;

    public TimestampOverflowException(long nowMillis, SnowflakeLayout layout) {
        super("Time " + nowMillis + " ms does not fit the " + layout.timeBits() + " time bits (" + layout.unit().symbol()
                + ") of layout " + layout.describe() + " after the epoch " + layout.twepoch() + "; the layout ends at "
                + layout.endsAt());
        this.nowMillis = nowMillis;
        this.twepoch = layout.twepoch();
    }

    public long nowMillis() {
        return nowMillis;
    }

    public long twepoch() {
        return twepoch;
    }
}
