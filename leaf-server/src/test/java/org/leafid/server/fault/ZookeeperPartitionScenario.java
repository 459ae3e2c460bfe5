package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.leafid.testing.TcpProxy;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;

/**
 * ZooKeeper behind a network partition: a relay that goes silent (no reset, no refusal) for
 * 10 s, longer than the reservation's lead and shorter than the session timeout. A
 * {@code zk_normal} instance with the default report interval issues as long as its last renewal
 * ZooKeeper confirmed covers (6 s), then refuses with 503 {@code worker-id-unavailable} (a renewal
 * that reaches only the cache file does not count), and issues again once the partition heals.
 */
final class ZookeeperPartitionScenario {

    static final int CLIENTS = 6;
    static final Duration PARTITION = Duration.ofSeconds(10);

    private ZookeeperPartitionScenario() {}

    static void run(FaultContext context, ScenarioResult result) throws Exception {
        LoadSummary run;
        LoadWatch refused;
        long lastErrorMillis;
        ServerProcess server;
        try (TestingServer zookeeper = new TestingServer(true);
                TcpProxy proxy = new TcpProxy("127.0.0.1", zookeeper.getPort())) {
            server = context.fleet.server("zk-partition", context.baseArguments("zk-partition",
                    "--leaf.segment.enable=false", "--leaf.snowflake.mode=zk_normal",
                    "--leaf.snowflake.zk.address=127.0.0.1:" + proxy.port()), Map.of());
            server.start().awaitReady(Duration.ofSeconds(90));
            List<ClientSpec> specs = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                specs.add(new ClientSpec(server.name(), server.port(), null, true, 5));
            }
            LoadRun load = LoadRun.start(specs);
            FaultContext.holdFor(load, 20_000);

            load.phase("partitioned");
            refused = load.watch(null, Mode.SNOWFLAKE, outcome -> outcome.status() != 200);
            proxy.freeze();
            FaultContext.hold(PARTITION);
            load.phase("healed");
            proxy.thaw();
            FaultContext.holdFor(load, 30_000); // after the heal: a server still refusing does not count
            run = load.stop();
            lastErrorMillis = load.lastErrorNanos(null, server.name()).stream()
                    .map(nanos -> (nanos - refused.sinceNanos()) / 1_000_000).findFirst().orElse(0);
            server.stop();
        }

        long[] ids = FaultContext.ids(List.of(run), Mode.SNOWFLAKE, spec -> true);
        long duplicates = IdChecks.duplicates(ids).count();
        long refusals = run.errors().values().stream().mapToLong(Long::longValue).sum();
        result.load = ScenarioResult.load(run);
        result.fault = "ZooKeeper partitioned for " + PARTITION.toSeconds() + " s under load (relay silent: no reset, "
                + "no refusal); zk_normal, default report interval 3 s";
        result.idsChecked = ids.length;
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(run.errors());
        result.recovery = refused.first() == null ? "zk_normal: no refusal" : String.format(Locale.ROOT,
                "zk_normal: %,d refusals from %s to %s after the partition began", refusals,
                ScenarioResult.millis((refused.first().doneNanos() - refused.sinceNanos()) / 1_000_000),
                ScenarioResult.millis(lastErrorMillis));
        result.note("%,d IDs issued during the partition (worker id %s); errors by phase: partitioned %s, healed %s.",
                run.ids("partitioned", Mode.SNOWFLAKE), FaultContext.workerIds(ids),
                ScenarioResult.errors(run.errors("partitioned")), ScenarioResult.errors(run.errors("healed")));
        result.note("Server log: %,d lines from the worker-id registry and holder at WARN/ERROR, %,d \"Refused a "
                + "snowflake ID\" lines; the ZooKeeper client: %s.", server.logText().lines()
                        .filter(line -> (line.contains("ZkNormalWorkerIdRegistry") || line.contains("ReservingWorkerIdHolder"))
                                && (line.contains(" WARN ") || line.contains(" ERROR "))).count(),
                server.logLines("Refused a snowflake ID"), server.logText().lines()
                        .filter(line -> line.contains("have not heard from server")).findFirst()
                        .map(line -> "`" + line.substring(line.indexOf("Client connection")).strip() + "`")
                        .orElse("no read timeout logged"));

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(FaultContext.notIncreasing(run, Mode.SNOWFLAKE)).as("clients whose IDs did not increase").isEmpty();
        assertThat(refused.first()).as("zk_normal refused once its confirmed renewal ran out").isNotNull();
        assertThat((refused.first().doneNanos() - refused.sinceNanos()) / 1_000_000)
                .as("first refusal after the partition began, ms (3 s report interval: 6 s window)").isLessThan(9_000);
        assertThat(FaultContext.unexpected(run.errors(), "snowflake 503 worker-id-unavailable"))
                .as("errors other than worker-id-unavailable").isEmpty();
        assertThat(run.ids("healed", Mode.SNOWFLAKE)).as("IDs after the partition healed").isPositive();
    }
}
