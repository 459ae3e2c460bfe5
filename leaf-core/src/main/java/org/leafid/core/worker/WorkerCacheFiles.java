package org.leafid.core.worker;

import java.nio.file.Path;

/** Where an instance keeps its worker-id cache: {@code {data-dir}/{leaf.name}/{port}/}. */
public record WorkerCacheFiles(Path dataDir, String name, int port) {

    /** {@code workId.json}, the {@code local} mode's reservation. */
    public ReservationFile local() {
        return new ReservationFile(directory().resolve("workId.json"));
    }

    /** {@code workerID.properties}, Leaf's cache of the ZooKeeper and MySQL modes. */
    public ReservationFile registry() {
        return new ReservationFile(directory().resolve("workerID.properties"));
    }

    private Path directory() {
        return dataDir.resolve(name).resolve(Integer.toString(port));
    }
}
