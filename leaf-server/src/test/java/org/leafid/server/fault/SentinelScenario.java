package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;
import org.leafid.testing.RedisSentinelGroup;

/**
 * Redis with Sentinel: a master, a replica and three Sentinels of the suite's own; two servers reach
 * them through {@code spring.data.redis.sentinel.*}, with the shard buffer in Redis lists and worker
 * ids in the {@code redis} mode, under load. The replica's stream is cut (it lags), the master killed,
 * and the Sentinels promote the replica: its lists still hold indexes the servers popped from the
 * master, and it lacks the last lease renewals. A third server starts after the failover. Every ID is
 * collected; none may repeat.
 */
final class SentinelScenario {

    private static final int APP = 241;
    private static final int CLIENTS_PER_SERVER = 4;

    private SentinelScenario() {}

    static void run(FaultContext context, ScenarioResult result) throws Exception {
        context.database.insertApp(APP, "fault-sentinel", 100, 0);
        LoadSummary run;
        LoadSummary thirdRun;
        long failoverMillis;
        long discarded = 0;
        List<Integer> workerIds;
        try (RedisSentinelGroup redis = RedisSentinelGroup.start()) {
            List<ServerProcess> servers = new ArrayList<>();
            for (String name : List.of("sentinel-1", "sentinel-2", "sentinel-3")) {
                // One leaf.name for the three: one fleet, one pool of worker ids.
                List<String> arguments = context.baseArguments("sentinel", "--leaf.segment.enable=false",
                        "--leaf.shard.enable=true", "--leaf.shard.buffer=redis", "--leaf.snowflake.mode=redis",
                        "--leaf.snowflake.report-interval=500ms", "--leaf.snowflake.redis.lease=11s",
                        "--spring.data.redis.sentinel.master=" + RedisSentinelGroup.MASTER_NAME,
                        "--spring.data.redis.sentinel.nodes=" + redis.nodes());
                arguments.addAll(context.database.serverArguments(context.database.url()));
                servers.add(context.fleet.server(name, arguments, context.database.serverEnvironment()));
            }
            Fleet.startAll(servers.subList(0, 2), Duration.ofSeconds(120));
            List<ClientSpec> specs = new ArrayList<>();
            for (ServerProcess server : servers.subList(0, 2)) {
                for (int c = 0; c < CLIENTS_PER_SERVER; c++) {
                    specs.add(c % 2 == 0 ? ClientSpec.shard(server.name(), server.port(), APP, 5)
                            : new ClientSpec(server.name(), server.port(), null, false, 5));
                }
            }
            LoadRun load = LoadRun.start(specs);
            FaultContext.holdFor(load, 15_000);
            load.phase("replica behind");
            redis.holdReplicaBehind();
            FaultContext.hold(Duration.ofMillis(300));
            load.phase("failover");
            redis.killMaster();
            failoverMillis = redis.awaitFailover();
            load.phase("after");
            FaultContext.holdFor(load, 15_000);
            ServerProcess third = servers.get(2);
            third.start().awaitReady(Duration.ofSeconds(90));
            LoadRun thirdLoad = LoadRun.start(List.of(ClientSpec.shard(third.name(), third.port(), APP, 5),
                    new ClientSpec(third.name(), third.port(), null, false, 5)));
            FaultContext.holdFor(thirdLoad, 5_000);
            thirdRun = thirdLoad.stop();
            run = load.stop();
            for (ServerProcess server : servers) {
                discarded += server.logLines("is now served by another Redis process");
                server.stop();
            }
        }

        long duplicates = 0;
        for (Mode mode : List.of(Mode.SHARD, Mode.SNOWFLAKE)) {
            duplicates += IdChecks.duplicates(FaultContext.ids(List.of(run, thirdRun), mode, spec -> true)).count();
        }
        workerIds = FaultContext.workerIds(FaultContext.ids(List.of(run, thirdRun), Mode.SNOWFLAKE, spec -> true));
        result.load = ScenarioResult.load(run);
        result.fault = "Redis master killed under load, its replica (stream cut 300 ms before) promoted by 3 Sentinels; "
                + "two servers through spring.data.redis.sentinel.*, shard buffer in Redis lists and redis worker ids; "
                + "a third server started after the failover";
        result.idsChecked = run.ids() + thirdRun.ids();
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(run.errors());
        result.recovery = "replica promoted " + ScenarioResult.millis(failoverMillis) + " after the kill; " + discarded
                + " lists found on another Redis process, discarded and refilled";
        result.note("IDs by kind: shard %,d, snowflake %,d (worker ids %s); the third server %,d. Errors by phase: "
                + "before %s; replica behind %s; failover %s; after %s; the third server's %s.", run.ids(Mode.SHARD),
                run.ids(Mode.SNOWFLAKE), workerIds, thirdRun.ids(),
                ScenarioResult.errors(run.errors("load")), ScenarioResult.errors(run.errors("replica behind")),
                ScenarioResult.errors(run.errors("failover")), ScenarioResult.errors(run.errors("after")),
                ScenarioResult.errors(thirdRun.errors()));

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(discarded).as("lists discarded on the promoted replica").isPositive();
        assertThat(run.ids("after", Mode.SHARD)).as("shard IDs after the failover").isPositive();
        assertThat(workerIds).as("worker ids of the three servers").hasSize(3);
        assertThat(run.errors("load")).as("errors before the fault").isEmpty();
        assertThat(FaultContext.unexpected(run.errors(), "shard 503 *", "snowflake 503 *"))
                .as("errors other than 503 problems").isEmpty();
    }
}
