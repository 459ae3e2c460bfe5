package org.leafid.core.worker;

/**
 * Holds a worker id for this instance and keeps its time reservation ahead of the clock. One
 * implementation serves every worker-id mode ({@link ReservingWorkerIdHolder}); what differs per mode
 * is the {@link WorkerIdRegistry} under it.
 */
public interface WorkerIdHolder extends AutoCloseable {

    /**
     * Acquires the worker id, waits (bounded) until the clock is past the reservation recorded
     * for it, and records a new reservation before returning.
     *
     * @throws org.leafid.core.LeafException when the id cannot be held safely
     */
    void start();

    /**
     * The lease in force. Read on every ID, so it must stay cheap: a volatile read (and, in
     * {@link ReservingWorkerIdHolder}, one read of its injected monotonic clock for the confirmed window).
     *
     * @throws org.leafid.core.worker.WorkerIdUnavailableException before {@link #start()} or after {@link #close()}
     */
    WorkerLease lease();

    /**
     * Told by the generator that the clock has run past the reservation, so IDs are refused. A
     * holder that renews in the background renews now instead of at its next tick; it must
     * return at once (it is called on the request path) and may ignore calls that come too often.
     */
    default void reservationLapsed() {
    }

    /** When the reservation was last recorded (the heartbeat), or -1 when never; for monitoring. */
    default long lastRecordedMillis() {
        return -1;
    }

    /**
     * Gives the worker id back after its generator has stopped issuing, recording a reservation
     * just past the last ID actually issued, so that a restart need not wait out the rest of the
     * reservation; then closes.
     *
     * @param lastIssuedMillis the timestamp of the last ID issued with this holder's lease, or
     *     any earlier time when none was
     */
    void release(long lastIssuedMillis);

    /** Stops renewing and leaves the last recorded reservation as it is; the lease is not used afterwards. */
    @Override
    void close();
}
