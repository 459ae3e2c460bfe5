package org.leafid.core.worker.kubernetes;

import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservationFile;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.local.LocalWorkerIdRegistry;
import org.leafid.core.worker.local.LocalWorkerIds;

/**
 * The {@code kubernetes} mode's registry: the worker id the pod's StatefulSet ordinal gives (plus its
 * offset), held as the {@code local} mode holds a configured one, with its reservation in a file on
 * the pod's own volume. Kubernetes runs at most one pod of an ordinal at a time; the file makes a
 * restart, on this node or another, wait past what the previous pod may have issued.
 */
public final class KubernetesWorkerIdRegistry implements WorkerIdRegistry {

    private final LocalWorkerIdRegistry held;

    /**
     * @param workerId the ordinal plus the offset
     * @throws IllegalArgumentException when it exceeds {@code maxWorkerId}
     */
    public KubernetesWorkerIdRegistry(int workerId, int maxWorkerId, InstanceAddress instance, ReservationFile cache) {
        this.held = new LocalWorkerIdRegistry(LocalWorkerIds.fixed(workerId, maxWorkerId), instance, cache);
    }

    @Override
    public Registration register() {
        return held.register();
    }
}
