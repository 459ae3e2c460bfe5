package org.leafid.core.snowflake;

import org.leafid.core.LeafException;

/** The clock reads earlier than the last ID issued (or than the reservation) by more than is waited out. */
public final class ClockMovedBackwardsException extends LeafException {

    private final long lastMillis;
    private final long nowMillis;

    public ClockMovedBackwardsException(long lastMillis, long nowMillis) {
        super("Clock moved backwards by " + (lastMillis - nowMillis) + " ms (last issued at "
                + lastMillis + ", clock now " + nowMillis + ")");
        this.lastMillis = lastMillis;
        this.nowMillis = nowMillis;
    }

    public long lastMillis() {
        return lastMillis;
    }

    public long nowMillis() {
        return nowMillis;
    }

    public long backwardsMillis() {
        return lastMillis - nowMillis;
    }
}
