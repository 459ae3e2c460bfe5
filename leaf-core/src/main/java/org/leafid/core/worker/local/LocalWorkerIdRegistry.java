package org.leafid.core.worker.local;

import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservationFile;
import org.leafid.core.worker.WorkerIdRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker id fixed from outside, its reservation kept in {@code {data-dir}/{leaf.name}/{port}/workId.json}:
 * the {@code local} mode (the id from configuration) and the {@code kubernetes} mode (the id from the
 * pod's StatefulSet ordinal, the file on the pod's own volume). Nothing is shared between instances,
 * so what keeps their ids apart is whoever fixes them.
 */
public final class LocalWorkerIdRegistry implements WorkerIdRegistry {

    private static final Logger log = LoggerFactory.getLogger(LocalWorkerIdRegistry.class);

    private final LocalWorkerIds ids;
    private final InstanceAddress instance;
    private final ReservationFile cache;

    public LocalWorkerIdRegistry(LocalWorkerIds ids, InstanceAddress instance, ReservationFile cache) {
        this.ids = ids;
        this.instance = instance;
        this.cache = cache;
    }

    @Override
    public Registration register() {
        int workerId = ids.workerIdFor(instance);
        long recorded = cache.read()
                .map(cached -> {
                    if (cached.workerId() != workerId) {
                        log.warn("Worker id for {} changed from {} (cached in {}) to {}; the cached reservation "
                                + "is honoured all the same", instance, cached.workerId(), cache.path(), workerId);
                    }
                    return cached.reservedUntilMillis();
                })
                .orElse(0L);
        log.info("Snowflake: {} uses worker id {} (reservation cache {})", instance, workerId, cache.path());
        return new Registration(workerId, recorded, cache);
    }
}
