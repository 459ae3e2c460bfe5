package org.leafid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.server.support.Http;
import org.leafid.testing.zookeeper.MeituanLeafNodes;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The server as a drop-in for Meituan Leaf: started with Leaf's {@code leaf.properties} keys only
 * (no {@code leaf.snowflake.mode}, which Leaf does not have) against a ZooKeeper holding
 * registrations Leaf made, it takes over the one of its ip:port, and a graceful stop leaves a
 * node Leaf itself starts on; with ZooKeeper down and no cache file of its own, it starts from
 * Leaf's. The ip is not configured: Leaf's nodes are made for the address the server detects.
 *
 * <p>Without {@code leaf.snowflake.mode} these need the default-mode rule (a ZooKeeper address
 * set means {@code zk_normal}, as in Leaf).
 */
class LeafDropInTest {

    private static final SnowflakeLayout LAYOUT = new SnowflakeLayout(SnowflakeLayout.DEFAULT_TWEPOCH);

    @TempDir
    Path dataDir;

    private final List<ConfigurableApplicationContext> servers = new ArrayList<>();
    private final String name = "dropin-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ip = InstanceAddress.detectIp();
    private TestingServer zookeeper;
    private CuratorFramework client;
    private MeituanLeafNodes leaf;

    @BeforeEach
    void startZookeeper() throws Exception {
        zookeeper = new TestingServer(true);
        client = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), new RetryOneTime(100));
        client.start();
        leaf = new MeituanLeafNodes(client, name);
    }

    @AfterEach
    void stopAll() throws Exception {
        servers.forEach(ConfigurableApplicationContext::close);
        client.close();
        zookeeper.close();
    }

    @Test
    void leafKeysOnlyTakeOverLeafsRegistrationsAndTwoServersNeverShareAWorkerId() throws Exception {
        long now = System.currentTimeMillis();
        leaf.register("10.9.9.9", 8080, now - 60_000); // another Leaf instance, still registered
        int firstLeafId = MeituanLeafNodes.workerId(leaf.register(ip, 18080, now - 5_000));
        int secondLeafId = MeituanLeafNodes.workerId(leaf.register(ip, 18081, now - 5_000));

        Http first = new Http(port(start(18080)));
        Http second = new Http(port(start(18081)));

        long[] fromFirst = ids(first);
        long[] fromSecond = ids(second);
        assertThat(Arrays.stream(fromFirst).map(id -> LAYOUT.decode(id).workerId()).distinct())
                .containsExactly((long) firstLeafId);
        assertThat(Arrays.stream(fromSecond).map(id -> LAYOUT.decode(id).workerId()).distinct())
                .containsExactly((long) secondLeafId);
        assertThat(first.get("/api/snowflake/decode/" + fromFirst[0]).body())
                .contains("\"workerId\":" + firstLeafId);
        Set<Long> all = new HashSet<>();
        Arrays.stream(fromFirst).forEach(all::add);
        Arrays.stream(fromSecond).forEach(all::add);
        assertThat(all).hasSize(fromFirst.length + fromSecond.length);
        assertThat(leaf.count()).isEqualTo(3); // taken over, no node added
    }

    @Test
    void aGracefulStopLeavesTheNodeSoLeafItselfStartsAgain() throws Exception {
        String node = leaf.register(ip, 18082, System.currentTimeMillis() - 5_000);
        ConfigurableApplicationContext server = start(18082);
        long[] issued = ids(new Http(port(server)));

        server.close();

        long clockAtStop = System.currentTimeMillis();
        MeituanLeafNodes.Endpoint endpoint = leaf.read(node);
        assertThat(endpoint).isEqualTo(new MeituanLeafNodes.Endpoint(ip, "18082", endpoint.timestamp()));
        assertThat(endpoint.leafStartsAt(clockAtStop)).as("Leaf starts on %s at %d", endpoint, clockAtStop).isTrue();
        long lastIssued = Arrays.stream(issued).map(id -> LAYOUT.decode(id).timestampMillis()).max().orElseThrow();
        assertThat(endpoint.timestamp()).isGreaterThan(lastIssued);
    }

    @Test
    void zookeeperDownAtStartRefusesTheStartEvenWithLeafsCacheFileAndSaysWhy() throws Exception {
        // Meituan Leaf starts from its cache file here; nothing in it proves that no other process of the
        // address took the id, so this server refuses, and an old key naming Leaf's directory is refused too.
        Path leafTmpdir = dataDir.resolve("leaf-tmpdir");
        Path leafFile = leafTmpdir.resolve(name).resolve("leafconf").resolve("18083").resolve("workerID.properties");
        Files.createDirectories(leafFile.getParent());
        Files.writeString(leafFile, "workerID=5"); // as Leaf writes it
        zookeeper.stop();

        assertThatThrownBy(() -> start(18083, "--leaf.snowflake.zk.connect-timeout=500ms"))
                .hasStackTraceContaining("leaf.snowflake.zk.address").hasStackTraceContaining("no cached id is safe");
        assertThatThrownBy(() -> start(18083, "--leaf.snowflake.zk.leaf-cache-dir=" + leafTmpdir))
                .hasStackTraceContaining("leaf.snowflake.zk.leaf-cache-dir");
    }

    /** Leaf's keys only, and {@code leaf.data-dir} so the test writes under its own directory. */
    private ConfigurableApplicationContext start(int leafPort, String... extra) {
        List<String> arguments = new ArrayList<>(List.of(
                "--server.port=0",
                "--leaf.name=" + name,
                "--leaf.data-dir=" + dataDir.resolve("instance-" + leafPort),
                "--leaf.segment.enable=false",
                "--leaf.snowflake.enable=true",
                "--leaf.snowflake.zk.address=" + zookeeper.getConnectString(),
                "--leaf.snowflake.port=" + leafPort));
        arguments.addAll(List.of(extra));
        ConfigurableApplicationContext server = new SpringApplicationBuilder(LeafServerApplication.class)
                .run(arguments.toArray(String[]::new));
        servers.add(server);
        return server;
    }

    private static int port(ConfigurableApplicationContext server) {
        return server.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    /** 2,000 IDs over HTTP, in two batches. */
    private static long[] ids(Http http) {
        List<Long> ids = new ArrayList<>();
        for (int batch = 0; batch < 2; batch++) {
            HttpResponse<String> response = http.get("/api/snowflake/get/dropin?count=1000");
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            response.body().lines().map(String::trim).map(Long::parseLong).forEach(ids::add);
        }
        assertThat(ids).hasSize(2_000);
        return ids.stream().mapToLong(Long::longValue).toArray();
    }
}
