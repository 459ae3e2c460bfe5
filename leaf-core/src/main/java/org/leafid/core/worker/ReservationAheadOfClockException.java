package org.leafid.core.worker;

import java.time.Duration;
import org.leafid.core.LeafException;

/**
 * At start, the clock stayed behind the reservation recorded for this worker id for longer than
 * the allowed start wait: starting would risk reissuing IDs.
 */
public final class ReservationAheadOfClockException extends LeafException {

    private final int workerId;
    private final long reservedUntilMillis;
    private final long nowMillis;

    public ReservationAheadOfClockException(int workerId, long reservedUntilMillis, long nowMillis,
            Duration maxStartWait) {
        super("Worker id " + workerId + " has a recorded reservation until " + reservedUntilMillis
                + ", " + (reservedUntilMillis - nowMillis) + " ms ahead of the clock (" + nowMillis
                + "), more than the start wait of " + maxStartWait.toMillis()
                + " ms allows; fix the clock (NTP), or wait until it passes the reservation, then start again");
        this.workerId = workerId;
        this.reservedUntilMillis = reservedUntilMillis;
        this.nowMillis = nowMillis;
    }

    public int workerId() {
        return workerId;
    }

    public long reservedUntilMillis() {
        return reservedUntilMillis;
    }

    public long nowMillis() {
        return nowMillis;
    }
}
