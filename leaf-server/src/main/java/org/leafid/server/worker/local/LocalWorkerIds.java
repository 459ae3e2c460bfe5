package org.leafid.server.worker.local;

import java.util.LinkedHashMap;
import java.util.Map;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.server.worker.InstanceAddress;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Leaf's local worker ids: {@code leaf.snowflake.local.workIdMap}, a JSON object
 * {@code {"ip:port": workerId}}, and {@code leaf.snowflake.local.worker-id} for an instance
 * the map does not name.
 */
public record LocalWorkerIds(Map<String, Integer> byInstance, int fallback) {

    public LocalWorkerIds {
        byInstance = Map.copyOf(byInstance);
        byInstance.forEach((instance, id) -> requireWorkerId("leaf.snowflake.local.workIdMap[" + instance + "]", id));
        requireWorkerId("leaf.snowflake.local.worker-id", fallback);
    }

    /**
     * Parses the map.
     *
     * @throws IllegalArgumentException naming the key when it is not a JSON object of ids
     */
    public static LocalWorkerIds parse(String workIdMap, int fallback) {
        Map<String, Integer> ids = new LinkedHashMap<>();
        if (workIdMap != null && !workIdMap.isBlank()) {
            JsonNode root;
            try {
                root = JsonMapper.builder().build().readTree(workIdMap);
            } catch (JacksonException e) {
                throw new IllegalArgumentException("leaf.snowflake.local.workIdMap is not valid JSON: "
                        + e.getOriginalMessage());
            }
            if (!root.isObject()) {
                throw new IllegalArgumentException(
                        "leaf.snowflake.local.workIdMap must be a JSON object {\"ip:port\": workerId}: " + workIdMap);
            }
            for (Map.Entry<String, JsonNode> entry : root.properties()) {
                if (!entry.getValue().isIntegralNumber()) {
                    throw new IllegalArgumentException("leaf.snowflake.local.workIdMap[" + entry.getKey()
                            + "] must be a whole number: " + entry.getValue());
                }
                ids.put(entry.getKey(), entry.getValue().asInt());
            }
        }
        return new LocalWorkerIds(ids, fallback);
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
