package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.data.Stat;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;

/**
 * ZooKeeper failing. Quorum loss while running (a cluster of 3, two stopped): both modes stop
 * (503) once their last renewal ZooKeeper confirmed runs out, {@code zk_normal} after 2 x its
 * report interval (a second process of its address could take its id once its session expires),
 * {@code zk_recycle} long before its lease lets the id be swept; both issue again once the quorum is
 * back. ZooKeeper down at start: {@code zk_normal} fails, naming the address, even with its cache file.
 */
final class ZookeeperOutageScenario implements AutoCloseable {

    static final int CLIENTS_PER_INSTANCE = 6;
    static final Duration QUORUM_LOST = Duration.ofSeconds(8);
    static final long LEASE_MILLIS = 30_000; // leaf.snowflake.recycle.lease default
    static final String REPORT_INTERVAL = "500ms";
    /** More renewals during the outage than the default 3 s gives: each one must go through without ZooKeeper. */
    static final String NORMAL_REPORT_INTERVAL = "1s";
    /** When, after zk_normal's last renewal, the quorum is cut: ~15 ms before the next one. */
    static final long RENEW_LEAD_MILLIS = 985;

    private final FaultContext context;
    private final TestingCluster cluster = new TestingCluster(3);
    private List<String> normalArguments;
    private ServerProcess normal;
    private long[] normalIds = new long[0];

    ZookeeperOutageScenario(FaultContext context) throws Exception {
        this.context = context;
        cluster.start();
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }

    /** Quorum loss under load, with one zk_normal and one zk_recycle instance. */
    void quorumLoss(ScenarioResult result) throws Exception {
        // Two clusters (leaf.name): zk_normal's and zk_recycle's worker ids are separate spaces, so
        // instances of both modes under one name would share worker ids.
        normalArguments = context.baseArguments("zk-normal", "--leaf.segment.enable=false",
                "--leaf.snowflake.mode=zk_normal", "--leaf.snowflake.zk.address=" + cluster.getConnectString(),
                "--leaf.snowflake.report-interval=" + NORMAL_REPORT_INTERVAL);
        normal = context.fleet.server("zk-normal", normalArguments, Map.of());
        ServerProcess recycle = context.fleet.server("zk-recycle", context.baseArguments("zk-recycle",
                "--leaf.segment.enable=false", "--leaf.snowflake.mode=zk_recycle",
                "--leaf.snowflake.zk.address=" + cluster.getConnectString(),
                "--leaf.snowflake.report-interval=" + REPORT_INTERVAL), Map.of());
        Fleet.startAll(List.of(normal, recycle), Duration.ofSeconds(120));
        List<ClientSpec> specs = new ArrayList<>();
        for (int c = 0; c < CLIENTS_PER_INSTANCE; c++) {
            specs.add(new ClientSpec(normal.name(), normal.port(), null, true, 5));
            specs.add(new ClientSpec(recycle.name(), recycle.port(), null, true, 5));
        }
        LoadRun load = LoadRun.start(specs);
        FaultContext.holdFor(load, 20_000);

        // The worst moment for zk_normal: just before its next renewal, so that the renewal meets a
        // ZooKeeper that is going away before its client has noticed.
        long renewedAt = awaitRenewal("/snowflake/fault-" + context.runId + "-zk-normal/forever");
        FaultContext.hold(Duration.ofMillis(Math.max(0, renewedAt + RENEW_LEAD_MILLIS - System.currentTimeMillis())));
        load.phase("quorum lost");
        LoadWatch stopped = load.watch(recycle.name(), Mode.SNOWFLAKE, outcome -> outcome.status() != 200);
        LoadWatch normalStopped = load.watch(normal.name(), Mode.SNOWFLAKE, outcome -> outcome.status() != 200);
        long lostAt = System.currentTimeMillis();
        List<InstanceSpec> servers = new ArrayList<>(cluster.getInstances());
        cluster.killServer(servers.get(0));
        cluster.killServer(servers.get(1));
        long stopMillis = stopped.awaitMillis(Duration.ofSeconds(20), "zk_recycle refusal after the quorum loss");
        long normalStopMillis = normalStopped.awaitMillis(Duration.ofSeconds(20), "zk_normal refusal after the quorum loss");
        FaultContext.hold(QUORUM_LOST);

        load.phase("quorum back");
        LoadWatch back = load.watch(recycle.name(), Mode.SNOWFLAKE, outcome -> outcome.status() == 200);
        LoadWatch normalBack = load.watch(normal.name(), Mode.SNOWFLAKE, outcome -> outcome.status() == 200);
        long restoredAt = System.currentTimeMillis();
        cluster.restartServer(servers.get(0));
        cluster.restartServer(servers.get(1));
        long recoveryMillis = back.awaitMillis(Duration.ofSeconds(60), "zk_recycle ID after the quorum came back");
        long normalRecoveryMillis = normalBack.awaitMillis(Duration.ofSeconds(60),
                "zk_normal ID after the quorum came back");
        FaultContext.holdFor(load, 15_000);
        LoadSummary run = load.stop();

        normalIds = FaultContext.ids(List.of(run), Mode.SNOWFLAKE, spec -> spec.instance().equals(normal.name()));
        long[] recycleIds = FaultContext.ids(List.of(run), Mode.SNOWFLAKE, spec -> spec.instance().equals(recycle.name()));
        long duplicates = IdChecks.duplicates(normalIds).count() + IdChecks.duplicates(recycleIds).count();
        long lastRecycleIdAt = Arrays.stream(recycleIds).map(id -> FaultContext.LAYOUT.decode(id).timestampMillis())
                .filter(time -> time < restoredAt).max().orElse(lostAt);
        List<String> notIncreasing = FaultContext.notIncreasing(run, Mode.SNOWFLAKE);

        result.load = ScenarioResult.load(run);
        result.fault = "ZooKeeper quorum lost (2 of 3 servers stopped) for " + ScenarioResult.millis(restoredAt - lostAt)
                + " under load; zk_normal (report interval " + NORMAL_REPORT_INTERVAL + ") and zk_recycle (report interval "
                + REPORT_INTERVAL + ", lease 30 s)";
        result.idsChecked = normalIds.length + recycleIds.length;
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(run.errors());
        long normalRefusals = run.errorsOf(normal.name()).values().stream().mapToLong(Long::longValue).sum();
        String normalStop = String.format(Locale.ROOT, "stopped %s after the loss (report interval %s: its last "
                + "confirmed renewal covers 2 x that), %,d refusals, first ID %s after the quorum came back",
                ScenarioResult.millis(normalStopMillis), NORMAL_REPORT_INTERVAL, normalRefusals,
                ScenarioResult.millis(normalRecoveryMillis));
        result.recovery = "zk_normal: " + normalStop + "; zk_recycle: stopped " + ScenarioResult.millis(stopMillis)
                + " after the loss (lease 30 s), first ID " + ScenarioResult.millis(recoveryMillis)
                + " after the quorum came back";
        result.note("zk_normal: %,d IDs (worker id %s), %,d of them while the quorum was lost; errors: %s.",
                normalIds.length, FaultContext.workerIds(normalIds), run.ids("quorum lost", Mode.SNOWFLAKE, normal.name()),
                ScenarioResult.errors(run.errorsOf(normal.name())));
        result.note("zk_recycle: %,d IDs (worker ids %s); last ID issued %,d ms after the loss, first refusal (%s) "
                + "%,d ms after it; its id could have been swept %,d ms after its last heartbeat at the earliest.",
                recycleIds.length, FaultContext.workerIds(recycleIds), lastRecycleIdAt - lostAt,
                stopped.first().key(), stopMillis, LEASE_MILLIS);

        result.note("Log lines \"Refused a snowflake ID\" (one WARN per refused request): zk_normal %,d, zk_recycle %,d.",
                normal.logLines("Refused a snowflake ID"), recycle.logLines("Refused a snowflake ID"));
        result.note("zk_recycle worker ids marked in use after the quorum came back: %s.",
                inUse("/snowflake/fault-" + context.runId + "-zk-recycle/recycle/inuse"));
        normal.stop();
        recycle.stop();

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(notIncreasing).as("clients whose IDs did not increase").isEmpty();
        assertThat(normalStopped.first().key()).isEqualTo("snowflake 503 worker-id-unavailable");
        assertThat(normalStopMillis).as("zk_normal stopped after the quorum loss within, ms").isLessThan(10_000);
        assertThat(FaultContext.unexpected(run.errorsOf(normal.name()), "snowflake 503 worker-id-unavailable"))
                .as("zk_normal errors other than worker-id-unavailable").isEmpty();
        assertThat(stopped.first().key()).isEqualTo("snowflake 503 worker-id-unavailable");
        assertThat(lastRecycleIdAt - lostAt).as("zk_recycle issued after the quorum loss for, ms")
                .isLessThan(LEASE_MILLIS - 10_000);
        assertThat(FaultContext.unexpected(run.errorsOf(recycle.name()), "snowflake 503 worker-id-unavailable"))
                .as("zk_recycle errors other than worker-id-unavailable").isEmpty();
    }

    /** Waits for the next write of zk_normal's node (a renewal) and returns when ZooKeeper applied it. */
    private long awaitRenewal(String forever) throws Exception {
        try (CuratorFramework client = CuratorFrameworkFactory.newClient(cluster.getConnectString(), 10_000, 5_000,
                new RetryOneTime(500))) {
            client.start();
            String node = forever + "/" + client.getChildren().forPath(forever).get(0);
            int version = client.checkExists().forPath(node).getVersion();
            Stat renewed = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                    .until(() -> client.checkExists().forPath(node), stat -> stat.getVersion() != version);
            return renewed.getMtime();
        }
    }

    /** The children of an inuse path with their data, read with a client of the test's own. */
    private List<String> inUse(String path) throws Exception {
        try (CuratorFramework client = CuratorFrameworkFactory.newClient(cluster.getConnectString(), 10_000, 5_000,
                new RetryOneTime(500))) {
            client.start();
            if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
                return List.of("(ZooKeeper not reachable)");
            }
            List<String> nodes = new ArrayList<>();
            for (String child : client.getChildren().forPath(path)) {
                Stat stat = new Stat();
                byte[] data = client.getData().storingStatIn(stat).forPath(path + "/" + child);
                nodes.add(child + " (version " + stat.getVersion() + ", last written "
                        + (System.currentTimeMillis() - stat.getMtime()) + " ms ago: "
                        + new String(data, StandardCharsets.UTF_8) + ")");
            }
            return nodes;
        }
    }

    /** All of ZooKeeper down, then zk_normal started again with the cache file of the quorum-loss run. */
    void downAtStart(ScenarioResult result) throws Exception {
        if (normal == null || normalIds.length == 0) {
            throw new AssertionError("needs the zk_normal instance of the quorum-loss run, which did not get that far");
        }
        normal.stop();
        cluster.stop();
        ServerProcess cached = context.fleet.server("zk-normal-from-cache", normal.port(), normal.dataDir(),
                normalArguments, Map.of());
        cached.start();
        int exit = cached.awaitExit(Duration.ofSeconds(90));
        String summary = "Snowflake could not start: ";
        String reason = cached.logText().lines().filter(line -> line.contains(summary))
                .map(line -> line.substring(line.indexOf(summary) + summary.length())).findFirst().orElse("");

        result.load = "none: the start is refused";
        result.fault = "all 3 ZooKeeper servers down at start: zk_normal started again with its cache file";
        result.idsChecked = normalIds.length;
        result.duplicates = IdChecks.duplicates(normalIds).count();
        result.errors = "the start";
        result.recovery = "exit code " + exit + " (a cached id cannot tell whether another process of the address "
                + "took it meanwhile)";
        result.note("The start failed with exit code %d and Spring Boot's start-failure summary (%,d log lines in "
                + "all): `%s`", exit, cached.logText().lines().count(), reason.strip());

        assertThat(exit).as("exit code without ZooKeeper, with a cache file").isNotZero();
        assertThat(reason).as("the log says why").contains("leaf.snowflake.zk.address")
                .contains("no cached id is safe");
    }
}
