package org.leafid.core.snowflake;

/**
 * The right to issue IDs with one worker id for wall-clock times in
 * {@code [validFromMillis, reservedUntilMillis)}. {@code validFromMillis} is the reservation a
 * previous holder of the id recorded: every ID it issued carries an earlier time.
 */
public record WorkerLease(int workerId, long validFromMillis, long reservedUntilMillis) {

    public WorkerLease {
        if (workerId < 0 || workerId > SnowflakeLayout.MAX_WORKER_ID) {
            throw new IllegalArgumentException("worker id must be in 0.." + SnowflakeLayout.MAX_WORKER_ID
                    + ": " + workerId);
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
