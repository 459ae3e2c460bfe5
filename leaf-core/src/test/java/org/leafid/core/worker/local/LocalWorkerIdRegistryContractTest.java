package org.leafid.core.worker.local;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.testing.WorkerIdRegistryContractTest;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry;

/**
 * The worker-id registry contract for {@code local}: ids from {@code leaf.snowflake.local.workIdMap},
 * reservations in each instance's {@code workId.json} under a temporary data dir. No backend,
 * so no outage.
 */
class LocalWorkerIdRegistryContractTest extends WorkerIdRegistryContractTest {

    private static final int INSTANCES = 16;

    @TempDir
    Path dataDir;

    /** Distinct, scattered ids, as an operator's map gives them. */
    private final LocalWorkerIds ids = mapOfInstances();

    LocalWorkerIdRegistryContractTest() {
        super(Restart.KEEPS_ID);
    }

    /** The id is configured per address: nothing shared could see a second process of one. */
    @Override
    protected SameAddress sameAddress() {
        return SameAddress.UNCHECKED;
    }

    @Override
    protected WorkerIdRegistry registry(int instance) {
        InstanceAddress address = address(instance);
        return new LocalWorkerIdRegistry(ids, address,
                new WorkerCacheFiles(dataDir.resolve(address.ip()), "leaf", address.port()).local());
    }

    private static LocalWorkerIds mapOfInstances() {
        Map<String, Integer> byInstance = new HashMap<>();
        for (int i = 0; i < INSTANCES; i++) {
            byInstance.put(address(i).key(), 1023 - 61 * i);
        }
        return new LocalWorkerIds(byInstance, 0);
    }

    private static InstanceAddress address(int instance) {
        return new InstanceAddress("10.2.0." + instance, 8080);
    }
}
