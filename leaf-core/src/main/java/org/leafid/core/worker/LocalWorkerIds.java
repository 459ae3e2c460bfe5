package org.leafid.core.worker;

import java.util.Map;
import org.leafid.core.snowflake.SnowflakeLayout;

/**
 * Leaf's local worker ids: {@code leaf.snowflake.local.workIdMap}, the JSON object
 * {@code {"ip:port": workerId}} (parsed by the starter), and {@code leaf.snowflake.local.worker-id}
 * for an instance the map does not name.
 */
public record LocalWorkerIds(Map<String, Integer> byInstance, int fallback) {

    public LocalWorkerIds {
        byInstance = Map.copyOf(byInstance);
        byInstance.forEach((instance, id) -> requireWorkerId("leaf.snowflake.local.workIdMap[" + instance + "]", id));
        requireWorkerId("leaf.snowflake.local.worker-id", fallback);
    }

    public int workerIdFor(InstanceAddress instance) {
        return byInstance.getOrDefault(instance.key(), fallback);
    }

    private static void requireWorkerId(String key, int id) {
        if (id < 0 || id > SnowflakeLayout.MAX_WORKER_ID) {
            throw new IllegalArgumentException(key + " must be in 0.." + SnowflakeLayout.MAX_WORKER_ID + ": " + id);
        }
    }
}
