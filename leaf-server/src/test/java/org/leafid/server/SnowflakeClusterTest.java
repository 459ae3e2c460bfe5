package org.leafid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Three server instances on one ZooKeeper (or one database) issue snowflake IDs through HTTP
 * at the same time; across all of them, no ID may appear twice.
 */
class SnowflakeClusterTest {

    private static final int INSTANCES = 3;
    private static final int CLIENTS_PER_INSTANCE = 3;
    private static final long RUN_MILLIS = 3_000;

    @TempDir
    Path dataDir;

    private TestingServer zookeeper;
    private final List<ConfigurableApplicationContext> servers = new ArrayList<>();

    @BeforeEach
    void startZookeeper() throws Exception {
        zookeeper = new TestingServer(true);
    }

    @AfterEach
    void stopAll() throws Exception {
        servers.forEach(ConfigurableApplicationContext::close);
        zookeeper.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"zk_normal", "zk_recycle", "mysql"})
    void threeInstancesIssueNoDuplicate(String mode) throws Exception {
        String cluster = "cluster-" + UUID.randomUUID().toString().substring(0, 8);
        List<Http> clients = new ArrayList<>();
        for (int i = 0; i < INSTANCES; i++) {
            ConfigurableApplicationContext server = start(mode, cluster, i);
            servers.add(server);
            clients.add(new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class)));
        }

        long[] all = issueConcurrently(clients);

        Arrays.sort(all);
        assertThat(all.length).isGreaterThan(INSTANCES * CLIENTS_PER_INSTANCE * 10);
        assertThat(all[0]).isPositive();
        for (int i = 1; i < all.length; i++) {
            assertThat(all[i]).as("duplicate ID %d", all[i]).isNotEqualTo(all[i - 1]);
        }
        SnowflakeLayout layout = servers.get(0).getBean(SnowflakeLayout.class);
        assertThat(Arrays.stream(all).map(id -> layout.decode(id).workerId()).distinct().count())
                .isEqualTo(INSTANCES);
    }

    @Test
    void recycleInstanceCutOffFromZookeeperIsUnreadyAnd503sUntilItsHeartbeatIsBack() throws Exception {
        ConfigurableApplicationContext server = start("zk_recycle", "cut-" + UUID.randomUUID(), 0,
                "--leaf.snowflake.report-interval=300ms");
        servers.add(server);
        Http http = new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
        long before = http.getId("/api/snowflake/get/k");
        assertThat(http.get("/actuator/health/readiness").statusCode()).isEqualTo(200);

        zookeeper.stop();
        // The reservation reaches 2 x 300 ms ahead: within a few seconds issuing must stop.
        HttpResponse<String> refused = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> http.get("/api/snowflake/get/k"), response -> response.statusCode() == 503);
        assertThat(refused.body()).contains("urn:leaf:problem:worker-id-unavailable");
        HttpResponse<String> readiness = http.get("/actuator/health/readiness");
        assertThat(readiness.statusCode()).isEqualTo(503);
        assertThat(readiness.body()).contains("DOWN").contains("workerId");

        zookeeper.restart();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> http.get("/actuator/health/readiness").statusCode() == 200);
        assertThat(http.getId("/api/snowflake/get/k")).isGreaterThan(before);
    }

    private long[] issueConcurrently(List<Http> clients) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients.size() * CLIENTS_PER_INSTANCE);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<long[]>> results = new ArrayList<>();
            for (Http client : clients) {
                for (int c = 0; c < CLIENTS_PER_INSTANCE; c++) {
                    results.add(pool.submit(() -> {
                        go.await();
                        long[] ids = new long[1024];
                        int count = 0;
                        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RUN_MILLIS);
                        while (System.nanoTime() < end) {
                            if (count == ids.length) {
                                ids = Arrays.copyOf(ids, count * 2);
                            }
                            ids[count++] = client.getId("/api/snowflake/get/cluster");
                        }
                        return Arrays.copyOf(ids, count);
                    }));
                }
            }
            go.countDown();
            List<long[]> parts = new ArrayList<>();
            for (Future<long[]> result : results) {
                parts.add(result.get(60, TimeUnit.SECONDS));
            }
            return parts.stream().flatMapToLong(Arrays::stream).toArray();
        } finally {
            pool.shutdownNow();
        }
    }

    private ConfigurableApplicationContext start(String mode, String cluster, int index, String... extra) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0",
                "--leaf.name=" + cluster,
                "--leaf.data-dir=" + dataDir.resolve("instance-" + index),
                "--leaf.segment.enable=false",
                "--leaf.snowflake.mode=" + mode,
                "--leaf.snowflake.ip=127.0.0.1",
                "--leaf.snowflake.port=" + (19100 + index)));
        if (mode.startsWith("zk_")) {
            arguments.add("--leaf.snowflake.zk.address=" + zookeeper.getConnectString());
        } else {
            TestDatabase database = TestDatabase.get();
            arguments.add("--leaf.jdbc.url=" + database.url());
            arguments.add("--leaf.jdbc.username=" + database.user());
            arguments.add("--leaf.jdbc.password=" + database.password());
        }
        arguments.addAll(List.of(extra));
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments.toArray(String[]::new));
    }
}
