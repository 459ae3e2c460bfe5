package org.leafid.autoconfigure.snowflake.local;

import java.util.LinkedHashMap;
import java.util.Map;
import org.leafid.core.worker.local.LocalWorkerIds;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reads {@code leaf.snowflake.local.workIdMap}, Leaf's JSON object {@code {"ip:port": workerId}}. */
final class WorkIdMap {

    private WorkIdMap() {}

    /**
     * Parses the map.
     *
     * @throws IllegalArgumentException naming the key when it is not a JSON object of ids
     */
    static LocalWorkerIds parse(String workIdMap, int fallback, int maxWorkerId) {
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
        return new LocalWorkerIds(ids, fallback, maxWorkerId);
    }

}
