package org.leafid.zookeeper;

import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The data of a worker-id node, exactly Meituan Leaf's {@code {"ip":"…","port":"…","timestamp":…}}:
 * the port a string and no other field, since Leaf reads it with a default (strict) Jackson
 * mapper and would not start on anything else. Leaf writes the last time it saw; this server
 * writes its reservation (no ID with this worker id carries that time or a later one), and at a
 * graceful stop a time just past its last ID and not after the clock.
 */
public record WorkerNode(String ip, int port, long timestamp) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public byte[] toBytes() {
        return ("{\"ip\":\"" + ip + "\",\"port\":\"" + port + "\",\"timestamp\":" + timestamp + "}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Reads node data; Leaf writes the port as a string, so both forms are accepted. */
    public static WorkerNode parse(String path, byte[] data) {
        String text = data == null ? "" : new String(data, StandardCharsets.UTF_8);
        try {
            JsonNode root = JSON.readTree(text.isBlank() ? "{}" : text);
            JsonNode timestamp = root.path("timestamp");
            if (!timestamp.isIntegralNumber()) {
                throw new IllegalStateException("ZooKeeper node " + path + " has no numeric timestamp: " + text);
            }
            JsonNode port = root.path("port");
            int portNumber = port.isIntegralNumber() ? port.asInt() : Integer.parseInt(port.asString("0"));
            return new WorkerNode(root.path("ip").asString(""), portNumber, timestamp.asLong());
        } catch (JacksonException | NumberFormatException e) {
            throw new IllegalStateException("ZooKeeper node " + path + " does not hold worker data: " + text, e);
        }
    }
}
