package org.leafid.server.worker.local;

import java.nio.file.Path;
import java.time.InstantSource;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.ReservingWorkerIdHolder;
import org.leafid.core.snowflake.WorkerIdHolder;
import org.leafid.server.config.LeafProperties;
import org.leafid.server.config.SnowflakeProperties;
import org.leafid.server.worker.InstanceAddress;
import org.leafid.server.worker.ReservationFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code local} mode: the worker id comes from configuration and its reservation is kept in
 * {@code {data-dir}/{leaf.name}/{port}/workId.json}.
 */
public final class LocalWorkerIdHolders {

    private static final Logger log = LoggerFactory.getLogger(LocalWorkerIdHolders.class);

    private LocalWorkerIdHolders() {}

    public static Path cacheFile(Path dataDir, String name, int port) {
        return dataDir.resolve(name).resolve(Integer.toString(port)).resolve("workId.json");
    }

    public static WorkerIdHolder create(SnowflakeProperties properties, LeafProperties leaf, InstanceAddress instance,
            InstantSource clock, Sleeper sleeper) {
        LocalWorkerIds ids = LocalWorkerIds.parse(properties.local().workIdMap(), properties.local().workerId());
        int workerId = ids.workerIdFor(instance);
        ReservationFile file = new ReservationFile(cacheFile(leaf.dataDir(), leaf.name(), instance.port()));
        long recorded = file.read()
                .map(cached -> {
                    if (cached.workerId() != workerId) {
                        log.warn("Worker id for {} changed from {} (cached in {}) to {}; the cached reservation "
                                + "is honoured all the same", instance, cached.workerId(), file.path(), workerId);
                    }
                    return cached.reservedUntilMillis();
                })
                .orElse(0L);
        log.info("Snowflake mode local: {} uses worker id {} (reservation cache {})", instance, workerId, file.path());
        return new ReservingWorkerIdHolder(workerId, recorded, file, clock, sleeper,
                properties.reportInterval(), properties.maxStartWait());
    }
}
