package org.leafid.bench;

import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.core.worker.WorkerLease;

/**
 * A worker id whose lease covers all time: the generator's lease check always passes, so a
 * benchmark measures the generator. The lease is read through a volatile field, as the real
 * holders publish theirs.
 */
final class ForeverWorkerIdHolder implements WorkerIdHolder {

    private volatile WorkerLease lease;

    ForeverWorkerIdHolder(int workerId) {
        this.lease = new WorkerLease(workerId, 0, Long.MAX_VALUE);
    }

    @Override
    public void start() {
        // nothing to acquire
    }

    @Override
    public WorkerLease lease() {
        return lease;
    }

    @Override
    public void release(long lastIssuedMillis) {
        close();
    }

    @Override
    public void close() {
        // the lease stays valid: nothing is recorded anywhere
    }
}
