package org.leafid.core.testing;

import java.util.concurrent.atomic.AtomicInteger;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.core.worker.WorkerLease;

/**
 * A worker id holder whose lease the test sets directly, for generator tests that are not
 * about how a lease is obtained. {@link #start()}, {@link #release} and {@link #close()} only
 * track the state.
 */
public final class FixedWorkerIdHolder implements WorkerIdHolder {

    private volatile WorkerLease lease;
    private volatile boolean started;
    private volatile boolean closed;
    private volatile long releasedAfterMillis = -1;
    private final AtomicInteger releases = new AtomicInteger();

    /** Holds {@code lease}; null holds nothing, so issuing fails as with an unheld id. */
    public FixedWorkerIdHolder(WorkerLease lease) {
        this.lease = lease;
    }

    /** Holds {@code workerId} for every time the layout can carry. */
    public static FixedWorkerIdHolder forever(int workerId) {
        return new FixedWorkerIdHolder(new WorkerLease(workerId, 0, Long.MAX_VALUE));
    }

    public void setLease(WorkerLease lease) {
        this.lease = lease;
    }

    @Override
    public void start() {
        started = true;
    }

    @Override
    public WorkerLease lease() {
        WorkerLease current = lease;
        if (current == null || closed) {
            throw new WorkerIdUnavailableException("No worker id is held (test holder)");
        }
        return current;
    }

    /** Records the last issued time it was given, then closes. */
    @Override
    public void release(long lastIssuedMillis) {
        releasedAfterMillis = lastIssuedMillis;
        releases.incrementAndGet();
        close();
    }

    @Override
    public void close() {
        closed = true;
    }

    /** The last issued time passed to {@link #release(long)}, or -1 when it was not called. */
    public long releasedAfterMillis() {
        return releasedAfterMillis;
    }

    /** How many times {@link #release(long)} was called. */
    public int releaseCount() {
        return releases.get();
    }

    public boolean started() {
        return started;
    }

    public boolean closed() {
        return closed;
    }
}
