package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.leafid.testing.jdbc.PostgresServer;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;

/**
 * Two servers on one PostgreSQL database of the suite's own (made with initdb, on a free port) under
 * load, every kind of ID at once: segment IDs of one tag with a small step (a reservation every few
 * hundred IDs), snowflake IDs with worker ids from {@code leaf_workerid_alloc} ({@code mysql} mode),
 * and shard IDs of one app. Then every backend of the database is ended with
 * {@code pg_terminate_backend}, three times a second apart, and PostgreSQL is restarted under load.
 * Every ID is collected: none may repeat, and each server must issue again once the database is back.
 */
final class PostgresScenario {

    static final int CLIENTS_PER_SERVER = 4;
    static final int APP = 244;
    /** The IDs of the load before the backends are ended and after PostgreSQL is back. */
    private static final long LOAD_IDS = 25_000;

    private PostgresScenario() {}

    static void run(FaultContext context, ScenarioResult result) throws Exception {
        LoadSummary run;
        long terminated = 0;
        long restartMillis;
        long recoveryMillis;
        long readyAgainMillis;
        String version;
        try (PostgresServer postgres = PostgresServer.start()) {
            TestDatabase database = TestDatabase.prepare(postgres.url("leaf"), "postgres", "");
            FaultDatabase leaf = FaultDatabase.on(database);
            version = leaf.version();
            String tag = "fault-" + context.runId + "-postgres";
            leaf.insertTag(tag, 1, 300);
            leaf.insertApp(APP, "fault-postgres", 100, 0);

            List<ServerProcess> servers = new ArrayList<>();
            for (String name : List.of("pg-1", "pg-2")) {
                List<String> arguments = context.baseArguments("postgres", "--leaf.shard.enable=true",
                        "--leaf.snowflake.mode=mysql", "--leaf.segment.max-step=300");
                arguments.addAll(leaf.serverArguments(database.url()));
                servers.add(context.fleet.server(name, arguments, leaf.serverEnvironment()));
            }
            Fleet.startAll(servers, Duration.ofSeconds(120));
            List<ClientSpec> specs = new ArrayList<>();
            for (ServerProcess server : servers) {
                for (int c = 0; c < CLIENTS_PER_SERVER; c++) {
                    specs.add(c % 2 == 0 ? new ClientSpec(server.name(), server.port(), tag, true, 5)
                            : ClientSpec.shard(server.name(), server.port(), APP, 5));
                }
            }
            LoadRun load = LoadRun.start(specs);
            FaultContext.holdFor(load, LOAD_IDS);

            load.phase("backends-ended");
            for (int round = 0; round < 3; round++) {
                terminated += terminateBackends(database);
                FaultContext.hold(Duration.ofSeconds(1));
            }
            FaultContext.hold(Duration.ofSeconds(3));

            load.phase("restart");
            long restartNanos = System.nanoTime();
            postgres.restart();
            restartMillis = (System.nanoTime() - restartNanos) / 1_000_000;
            long backNanos = System.nanoTime();
            LoadWatch recovered = load.watch(null, Mode.SEGMENT, outcome -> outcome.status() == 200);
            recoveryMillis = recovered.awaitMillis(Duration.ofSeconds(30), "segment ID after the restart");
            for (ServerProcess server : servers) {
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                        .until(() -> server.status("/actuator/health/readiness") == 200);
            }
            readyAgainMillis = (System.nanoTime() - backNanos) / 1_000_000;
            load.phase("after");
            FaultContext.holdFor(load, LOAD_IDS);
            run = load.stop();
            for (ServerProcess server : servers) {
                server.stop();
            }
        }

        long duplicates = 0;
        for (Mode mode : Mode.values()) {
            duplicates += IdChecks.duplicates(FaultContext.ids(List.of(run), mode, spec -> true)).count();
        }
        List<Integer> workerIds = FaultContext.workerIds(FaultContext.ids(List.of(run), Mode.SNOWFLAKE, spec -> true));
        List<String> notIncreasing = new ArrayList<>(FaultContext.notIncreasing(run, Mode.SEGMENT));
        notIncreasing.addAll(FaultContext.notIncreasing(run, Mode.SNOWFLAKE));

        result.load = ScenarioResult.load(run);
        result.fault = "every backend ended (pg_terminate_backend, " + terminated + " sessions in 3 rounds), then "
                + "PostgreSQL restarted (" + ScenarioResult.millis(restartMillis) + " down), under load";
        result.idsChecked = run.ids();
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(run.errors());
        result.recovery = "segment IDs again " + ScenarioResult.millis(recoveryMillis) + " after the restart; both "
                + "servers ready again after " + ScenarioResult.millis(readyAgainMillis);
        result.note("%s, a server of the suite's own (initdb, a free port); two servers, segment (step 300), "
                + "snowflake in mysql mode (worker ids %s) and shard app %d.", version, workerIds, APP);
        result.note("IDs by kind: segment %,d, snowflake %,d, shard %,d. Errors by phase: before %s; backends ended "
                + "%s; restart %s; after %s.", run.ids(Mode.SEGMENT), run.ids(Mode.SNOWFLAKE), run.ids(Mode.SHARD),
                ScenarioResult.errors(run.errors("load")), ScenarioResult.errors(run.errors("backends-ended")),
                ScenarioResult.errors(run.errors("restart")), ScenarioResult.errors(run.errors("after")));

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(notIncreasing).as("clients whose IDs did not increase").isEmpty();
        assertThat(workerIds).as("worker ids of the two servers").hasSize(2);
        assertThat(terminated).as("backends ended").isPositive();
        assertThat(run.ids("after", Mode.SEGMENT)).as("segment IDs after the restart").isPositive();
        assertThat(run.ids("after", Mode.SHARD)).as("shard IDs after the restart").isPositive();
        assertThat(run.errors("load")).as("errors before the faults").isEmpty();
        assertThat(FaultContext.unexpected(run.errors(), "segment 503 *", "shard 503 *", "snowflake 503 *"))
                .as("errors other than 503 problems").isEmpty();
    }

    /** Ends every session of the database but this one; how many. */
    private static long terminateBackends(TestDatabase database) throws Exception {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
                ResultSet ended = statement.executeQuery("SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) "
                        + "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()) t")) {
            ended.next();
            return ended.getLong(1);
        }
    }
}
