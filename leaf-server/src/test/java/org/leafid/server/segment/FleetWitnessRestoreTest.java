package org.leafid.server.segment;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A backup restored under a fleet whose servers start again on new, empty data directories (pods
 * without a persistent volume), with ZooKeeper or Redis as the fleet's witness (issue 44, item 1): two
 * servers serve a tag, a dump is taken, both go on, are stopped, the dump is loaded back, and both start
 * again with nothing of their own. Their first claims overlap the witnessed blocks, and every row is
 * carried to the witnessed end: nothing is served twice, and the skip is exact (no margin of 1,000
 * blocks). Every ID is collected.
 */
class FleetWitnessRestoreTest {

    private static final int STEP = 100;

    @TempDir
    Path dataDirs;

    @Test
    void withRedisAsWitnessARestoreUnderNewPodsRepeatsNothingOnMariadb() throws Exception {
        restoreUnderNewPods(TestDatabase.get(), List.of("--leaf.witness.fleet=redis"));
    }

    @Test
    void withRedisAsWitnessARestoreUnderNewPodsRepeatsNothingOnPostgresql() throws Exception {
        restoreUnderNewPods(TestDatabase.postgres(), List.of("--leaf.witness.fleet=redis"));
    }

    @Test
    void withZookeeperAsWitnessARestoreUnderNewPodsRepeatsNothing() throws Exception {
        try (TestingServer zookeeper = new TestingServer(true)) {
            restoreUnderNewPods(TestDatabase.get(), List.of("--leaf.witness.fleet=zookeeper",
                    "--leaf.snowflake.zk.address=" + zookeeper.getConnectString()));
        }
    }

    /** A witness that cannot be reached refuses the block: 503 store-unavailable naming it, nothing served. */
    @Test
    void aWitnessThatIsDownIsA503NamingIt() throws Exception {
        TestDatabase database = TestDatabase.get();
        String tag = database.newTag("witness-down", 1, STEP);
        int nothingListens;
        try (ServerSocket probe = new ServerSocket(0)) {
            nothingListens = probe.getLocalPort();
        }
        try (ConfigurableApplicationContext server = start(database, List.of("--leaf.witness.fleet=redis",
                "--spring.data.redis.port=" + nothingListens, "--spring.data.redis.connect-timeout=500ms"),
                "down-" + UUID.randomUUID().toString().substring(0, 8))) {
            var answer = http(server).get("/api/segment/get/" + tag);
            assertThat(answer.statusCode()).isEqualTo(503);
            assertThat(answer.body()).contains("store-unavailable").contains("witness");
        }
    }

    private void restoreUnderNewPods(TestDatabase database, List<String> witness) throws Exception {
        String namespace = "restore-" + UUID.randomUUID().toString().substring(0, 8);
        String tag = database.newTag("fleet-restored", 1, STEP);
        List<Long> issued = new ArrayList<>();
        long dumpedMaxId;
        try (ConfigurableApplicationContext a = start(database, witness, namespace);
                ConfigurableApplicationContext b = start(database, witness, namespace)) {
            take(http(a), tag, 500, issued);
            take(http(b), tag, 500, issued);
            dumpedMaxId = database.maxId(tag); // the dump of leaf_alloc and leaf_high_water
            for (int round = 0; round < 6; round++) {
                take(http(a), tag, 500, issued);
                take(http(b), tag, 500, issued);
            }
        }
        long highestBefore = issued.stream().mapToLong(Long::longValue).max().orElseThrow();
        long maxIdBefore = database.maxId(tag);
        database.setBackWithMark(tag, maxIdBefore - dumpedMaxId); // the dump loaded back

        try (ConfigurableApplicationContext a = start(database, witness, namespace);
                ConfigurableApplicationContext b = start(database, witness, namespace)) {
            for (int round = 0; round < 4; round++) {
                take(http(a), tag, 500, issued);
                take(http(b), tag, 500, issued);
            }
        }

        Set<Long> distinct = new HashSet<>(issued);
        assertThat(issued).hasSize(11_000);
        assertThat(distinct).as("IDs served twice across the restore").hasSize(issued.size());
        assertThat(issued.subList(7_000, issued.size())).allSatisfy(id -> assertThat(id).isGreaterThan(highestBefore));
        assertThat(database.maxId(tag)).as("carried to the witnessed end, not 1,000 blocks past it")
                .isLessThan(maxIdBefore + 1_000L * STEP);
    }

    /** Batches of 50; an ID repeated shows in the assertions at the end. */
    private static void take(Http http, String tag, int count, List<Long> into) {
        for (int taken = 0; taken < count; taken += 50) {
            var answer = http.get("/api/segment/get/" + tag + "?count=50");
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            answer.body().lines().map(Long::parseLong).forEach(into::add);
        }
    }

    /** A server on a new, empty data directory, as a pod without a volume starts. */
    private ConfigurableApplicationContext start(TestDatabase database, List<String> witness, String namespace)
            throws Exception {
        Path dataDir = Files.createTempDirectory(dataDirs, "pod-");
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--leaf.snowflake.enable=false",
                "--leaf.data-dir=" + dataDir, "--leaf.witness.namespace=" + namespace,
                "--leaf.segment.max-step=" + STEP));
        arguments.addAll(witness);
        for (Map.Entry<String, Object> property : database.serverProperties().entrySet()) {
            arguments.add("--" + property.getKey() + "=" + property.getValue());
        }
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments.toArray(String[]::new));
    }

    private static Http http(ConfigurableApplicationContext server) {
        return new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }
}
