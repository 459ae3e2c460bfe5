package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;

/**
 * Three instances on one database and one ZooKeeper, each loaded by 8 clients asking for segment
 * and snowflake IDs for 30 s: no ID twice across all of them, and each client's segment IDs
 * increase. Small steps (100, growing to at most 1,000) make the instances reserve blocks of the
 * same rows over and over, side by side.
 */
final class MultiInstanceScenario {

    static final int INSTANCES = 3;
    static final int CLIENTS_PER_INSTANCE = 8;
    /** The IDs the load gives before it stops (about 10 s on the 2-core build machine). */
    static final long LOAD_IDS = Long.getLong("leaftest.multi-instance-ids", 100_000);

    private MultiInstanceScenario() {}

    static void run(FaultContext context, ScenarioResult result) throws Exception {
        String[] tags = {context.newTag("multi-a", 1, 100), context.newTag("multi-b", 1, 100)};
        LoadSummary run;
        List<ServerProcess> servers = new ArrayList<>();
        try (TestingServer zookeeper = new TestingServer(true)) {
            for (int i = 0; i < INSTANCES; i++) {
                List<String> arguments = context.baseArguments("multi",
                        "--leaf.snowflake.mode=zk_normal", "--leaf.snowflake.zk.address=" + zookeeper.getConnectString(),
                        "--leaf.segment.max-step=1000");
                arguments.addAll(context.database.serverArguments(context.database.url()));
                servers.add(context.fleet.server("multi-" + i, arguments, context.database.serverEnvironment()));
            }
            Fleet.startAll(servers, Duration.ofSeconds(120));
            List<ClientSpec> specs = new ArrayList<>();
            for (ServerProcess server : servers) {
                for (int c = 0; c < CLIENTS_PER_INSTANCE; c++) {
                    specs.add(new ClientSpec(server.name(), server.port(), tags[c % 2], true, 5));
                }
            }
            LoadRun load = LoadRun.start(specs);
            FaultContext.holdFor(load, LOAD_IDS);
            run = load.stop();
            for (ServerProcess server : servers) {
                server.stop();
            }
        }

        long[] snowflake = FaultContext.ids(List.of(run), Mode.SNOWFLAKE, spec -> true);
        long[] all = FaultContext.ids(List.of(run), Mode.SEGMENT, spec -> true);
        long duplicates = IdChecks.duplicates(snowflake).count();
        for (String tag : tags) {
            long[] segment = FaultContext.ids(List.of(run), Mode.SEGMENT, spec -> spec.tag().equals(tag));
            duplicates += IdChecks.duplicates(segment).count();
            result.note("Tag %s: %,d segment IDs from %,d to %,d; max_id now %,d.", tag, segment.length,
                    IdChecks.min(segment), IdChecks.max(segment), context.database.maxId(tag));
        }
        List<Integer> workerIds = FaultContext.workerIds(snowflake);
        List<String> notIncreasing = new ArrayList<>(FaultContext.notIncreasing(run, Mode.SEGMENT));
        notIncreasing.addAll(FaultContext.notIncreasing(run, Mode.SNOWFLAKE));
        Map<String, Long> errors = run.errors();

        result.load = ScenarioResult.load(run);
        result.fault = "none: 3 instances share one MariaDB (2 tags, step 100, growing to at most 1,000) and one "
                + "ZooKeeper (zk_normal)";
        result.idsChecked = run.ids();
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(errors);
        result.note("%,d segment IDs and %,d snowflake IDs (worker ids %s), %,d requests; batches of %d every 5th "
                + "request of each mode.", run.ids(Mode.SEGMENT), run.ids(Mode.SNOWFLAKE), workerIds, run.requests(),
                LoadRun.BATCH);
        result.note("Per client (one connection to one instance): segment and snowflake IDs strictly increasing: %s.",
                notIncreasing.isEmpty() ? "yes, all " + run.clients().size() + " clients" : notIncreasing);

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(notIncreasing).as("clients whose IDs did not increase").isEmpty();
        assertThat(workerIds).as("one worker id per instance").hasSize(INSTANCES);
        assertThat(errors).as("errors under plain load").isEmpty();
        assertThat(run.ids(Mode.SEGMENT)).isPositive();
        assertThat(run.ids(Mode.SNOWFLAKE)).isPositive();
        assertThat(run.ids()).isGreaterThanOrEqualTo(LOAD_IDS);
    }
}
