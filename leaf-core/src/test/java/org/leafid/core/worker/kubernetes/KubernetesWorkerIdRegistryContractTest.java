package org.leafid.core.worker.kubernetes;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.testing.WorkerIdRegistryContractTest;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry;

/**
 * The worker-id registry contract for {@code kubernetes}: pod {@code leaf-N} of a StatefulSet takes
 * N plus the offset, its reservation in {@code workId.json} on its own volume (here a directory per
 * pod under a temporary dir). No backend, so no outage.
 */
class KubernetesWorkerIdRegistryContractTest extends WorkerIdRegistryContractTest {

    /** A second StatefulSet's offset, as docs/worker-id-modes.md shows it. */
    private static final int OFFSET = 100;

    @TempDir
    Path volumes;

    KubernetesWorkerIdRegistryContractTest() {
        super(Restart.KEEPS_ID);
    }

    /** Kubernetes runs one pod per ordinal; nothing shared could see a second process of one. */
    @Override
    protected SameAddress sameAddress() {
        return SameAddress.UNCHECKED;
    }

    @Override
    protected WorkerIdRegistry registry(int ordinal) {
        InstanceAddress pod = new InstanceAddress("10.3.0." + ordinal, 8080);
        return new KubernetesWorkerIdRegistry(OFFSET + ordinal, WorkerIdRegistry.LEAF_MAX_WORKER_ID, pod,
                new WorkerCacheFiles(volumes.resolve("leaf-" + ordinal), "leaf", pod.port()).local());
    }
}
