package org.leafid.core.worker;

/**
 * The right to issue IDs with one worker id for wall-clock times in
 * {@code [validFromMillis, reservedUntilMillis)}. {@code validFromMillis} is the reservation a
 * previous holder of the id recorded: every ID it issued carries an earlier time.
 */
public record WorkerLease(int workerId, long validFromMillis, long reservedUntilMillis) {

    public WorkerLease {
        if (workerId < 0) {
            // The layout bounds it from above (Leaf's 10 bits, or wider): the generator checks.
            throw new IllegalArgumentException("worker id must not be negative: " + workerId);
        }
    }

    public boolean covers(long epochMillis) {
        return epochMillis >= validFromMillis && epochMillis < reservedUntilMillis;
    }

    /** Same id and start, reservation moved to {@code until}. */
    public WorkerLease extendedTo(long until) {
        return new WorkerLease(workerId, validFromMillis, until);
    }
}
