package org.leafid.core.worker.local;

import java.util.Map;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerIdRegistry;

/**
 * Leaf's local worker ids: {@code leaf.snowflake.local.workIdMap}, the JSON object
 * {@code {"ip:port": workerId}} (parsed by the starter), and {@code leaf.snowflake.local.worker-id}
 * for an instance the map does not name; every id at most {@code maxWorkerId}, the layout's
 * largest ({@code 2^worker-bits - 1}).
 */
public record LocalWorkerIds(Map<String, Integer> byInstance, int fallback, int maxWorkerId) {

    public LocalWorkerIds {
        if (maxWorkerId < 0) {
            throw new IllegalArgumentException("maxWorkerId must not be negative: " + maxWorkerId);
        }
        byInstance = Map.copyOf(byInstance);
        int max = maxWorkerId;
        byInstance.forEach((instance, id) -> requireWorkerId("leaf.snowflake.local.workIdMap[" + instance + "]", id,
                max));
        requireWorkerId("leaf.snowflake.local.worker-id", fallback, maxWorkerId);
    }

    /** With Leaf's 10 worker bits (0..1023). */
    public LocalWorkerIds(Map<String, Integer> byInstance, int fallback) {
        this(byInstance, fallback, WorkerIdRegistry.LEAF_MAX_WORKER_ID);
    }

    /**
     * One worker id whatever the instance's address: the {@code kubernetes} mode's, whose id comes from
     * the pod name (the caller checks it against the layout first, naming its own keys).
     */
    public static LocalWorkerIds fixed(int workerId, int maxWorkerId) {
        return new LocalWorkerIds(Map.of(), workerId, maxWorkerId);
    }

    public int workerIdFor(InstanceAddress instance) {
        return byInstance.getOrDefault(instance.key(), fallback);
    }

    private static void requireWorkerId(String key, int id, int maxWorkerId) {
        if (id < 0 || id > maxWorkerId) {
            throw new IllegalArgumentException(key + " must be in 0.." + maxWorkerId + ", the worker ids of the layout "
                    + "(leaf.snowflake.layout, .worker-bits): " + id);
        }
    }
}
