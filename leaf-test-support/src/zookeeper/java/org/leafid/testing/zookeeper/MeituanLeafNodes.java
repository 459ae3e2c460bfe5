package org.leafid.testing.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code zk_normal} registrations made and read exactly as Meituan Leaf's
 * {@code SnowflakeZookeeperHolder} does, written here from its behaviour (not its code), so tests
 * prove compatibility against Leaf's layout rather than against our own {@link WorkerNode}.
 */
public final class MeituanLeafNodes {

    /** What Leaf's start does with node data: a default Jackson mapper, where unknown properties fail. */
    private static final JsonMapper LEAF_MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    /** The shape of Leaf's {@code Endpoint}: the port is a string. */
    public record Endpoint(String ip, String port, long timestamp) {

        /** Leaf's start check on an existing node: it refuses a timestamp ahead of its clock. */
        public boolean leafStartsAt(long nowMillis) {
            return timestamp <= nowMillis;
        }
    }

    private final CuratorFramework client;
    private final String name;

    public MeituanLeafNodes(CuratorFramework client, String name) {
        this.client = client;
        this.name = name;
    }

    /** {@code /snowflake/{leaf.name}/forever}. */
    public String forever() {
        return "/snowflake/" + name + "/forever";
    }

    /** Creates the node as Leaf's {@code createNode} does, with the JSON Jackson writes for its Endpoint. */
    public String register(String ip, int port, long timestamp) throws Exception {
        String json = "{\"ip\":\"" + ip + "\",\"port\":\"" + port + "\",\"timestamp\":" + timestamp + "}";
        return client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                .forPath(forever() + "/" + ip + ":" + port + "-", json.getBytes(StandardCharsets.UTF_8));
    }

    /** Reads a node as Leaf's start does (strictly), checking the port is a string as Leaf writes it. */
    public Endpoint read(String node) throws Exception {
        byte[] data = client.getData().forPath(node);
        JsonNode tree = LEAF_MAPPER.readTree(data);
        assertThat(tree.propertyNames()).as("fields of %s", node).containsExactly("ip", "port", "timestamp");
        assertThat(tree.get("port").isString()).as("port of %s as a string", node).isTrue();
        return LEAF_MAPPER.readValue(data, Endpoint.class);
    }

    /** The node of {@code ip:port}, as Leaf finds it by splitting child names at '-'. */
    public String nodeOf(String ip, int port) throws Exception {
        String prefix = ip + ":" + port + "-";
        return client.getChildren().forPath(forever()).stream().filter(child -> child.startsWith(prefix))
                .map(child -> forever() + "/" + child).findFirst()
                .orElseThrow(() -> new AssertionError("no node for " + prefix + " under " + forever()));
    }

    public int count() throws Exception {
        return client.getChildren().forPath(forever()).size();
    }

    /** The worker id a node stands for: its 10-digit sequence number. */
    public static int workerId(String node) {
        return Integer.parseInt(node.substring(node.lastIndexOf('-') + 1));
    }
}
