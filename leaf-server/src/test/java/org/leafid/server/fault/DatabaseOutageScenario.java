package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.leafid.testing.TcpProxy;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;

/**
 * The path to the database cut under load (a TCP proxy in the test JVM drops every connection
 * and refuses new ones): segment IDs come from the buffers while they last, then 503
 * problem+json; once the path is back the server recovers by itself. Snowflake (local mode)
 * does not need the database and must not notice.
 */
final class DatabaseOutageScenario {

    static final int CLIENTS = 8;
    static final Duration OUTAGE = Duration.ofSeconds(6);

    private DatabaseOutageScenario() {}

    static void run(FaultContext context, ScenarioResult result) throws Exception {
        String tag = context.newTag("db-outage", 1, 1000);
        LoadSummary run;
        long firstRefusalMillis;
        long recoveryMillis;
        long readyAgainMillis;
        long lastErrorMillis;
        int readinessDuringOutage;
        String firstRefusal;
        try (TcpProxy proxy = context.database.newProxy()) {
            List<String> arguments = context.baseArguments("db-outage", "--leaf.segment.max-step=2000");
            arguments.addAll(context.database.serverArguments(context.database.urlThrough(proxy)));
            ServerProcess server = context.fleet.server("db-outage", arguments, context.database.serverEnvironment());
            server.start().awaitReady(Duration.ofSeconds(90));
            List<ClientSpec> specs = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                specs.add(new ClientSpec(server.name(), server.port(), tag, true, 5));
            }
            LoadRun load = LoadRun.start(specs);
            FaultContext.holdFor(load, 20_000);

            load.phase("outage");
            LoadWatch refused = load.watch(null, Mode.SEGMENT, outcome -> outcome.status() != 200);
            proxy.cut();
            firstRefusalMillis = refused.awaitMillis(Duration.ofSeconds(30), "segment refusal after the cut");
            firstRefusal = refused.first().key();
            FaultContext.hold(OUTAGE);
            readinessDuringOutage = server.status("/actuator/health/readiness");

            load.phase("restored");
            LoadWatch recovered = load.watch(null, Mode.SEGMENT, outcome -> outcome.status() == 200);
            long restoredNanos = System.nanoTime();
            proxy.restore();
            recoveryMillis = recovered.awaitMillis(Duration.ofSeconds(30), "segment ID after the restore");
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> server.status("/actuator/health/readiness") == 200);
            readyAgainMillis = (System.nanoTime() - restoredNanos) / 1_000_000;
            FaultContext.holdFor(load, 15_000);
            run = load.stop();
            result.note("The server logged %,d WARN lines \"Segment store failure answered with 503\" and %,d "
                    + "\"no block could be reserved\" (both throttled per kind).",
                    server.logLines("Segment store failure answered with 503"),
                    server.logLines("no block could be reserved"));
            lastErrorMillis = load.lastErrorNanos("restored").stream()
                    .map(nanos -> (nanos - restoredNanos) / 1_000_000).findFirst().orElse(0);
            server.stop();
        }

        long duplicates = IdChecks.duplicates(FaultContext.ids(List.of(run), Mode.SEGMENT, spec -> true)).count()
                + IdChecks.duplicates(FaultContext.ids(List.of(run), Mode.SNOWFLAKE, spec -> true)).count();
        List<String> notIncreasing = new ArrayList<>(FaultContext.notIncreasing(run, Mode.SEGMENT));
        notIncreasing.addAll(FaultContext.notIncreasing(run, Mode.SNOWFLAKE));
        long servedFromBuffers = run.ids("outage", Mode.SEGMENT);

        result.load = ScenarioResult.load(run);
        result.fault = "database path cut for " + ScenarioResult.millis(firstRefusalMillis + OUTAGE.toMillis())
                + " under load (TCP proxy drops and refuses connections)";
        result.idsChecked = run.ids();
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(run.errors());
        result.recovery = "first segment ID " + ScenarioResult.millis(recoveryMillis) + " after the path came back"
                + (lastErrorMillis > recoveryMillis ? ", last 503 after " + ScenarioResult.millis(lastErrorMillis) : "")
                + "; readiness UP after " + ScenarioResult.millis(readyAgainMillis);
        result.note("After the cut: %,d segment IDs served from the buffers, first refusal (%s) after %s; readiness "
                + "during the outage answered %d.", servedFromBuffers, firstRefusal,
                ScenarioResult.millis(firstRefusalMillis), readinessDuringOutage);
        result.note("Snowflake (local worker id) during the outage: %,d IDs, errors: %s.",
                run.ids("outage", Mode.SNOWFLAKE), ScenarioResult.errors(FaultContext.unexpected(run.errors("outage"),
                        "segment*")));
        result.note("Errors by phase: before %s; outage %s; after the restore %s.",
                ScenarioResult.errors(run.errors("load")), ScenarioResult.errors(run.errors("outage")),
                ScenarioResult.errors(run.errors("restored")));

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(notIncreasing).as("clients whose IDs did not increase").isEmpty();
        assertThat(servedFromBuffers).as("segment IDs served from the buffers after the cut").isPositive();
        assertThat(run.errors("load")).as("errors before the cut").isEmpty();
        assertThat(FaultContext.unexpected(run.errors(), "segment 503 store-unavailable",
                "segment 503 segment-not-ready")).as("errors other than the two 503 problems").isEmpty();
        assertThat(run.errors("outage")).as("the outage was answered with 503s").isNotEmpty();
        assertThat(readinessDuringOutage).as("readiness while the tag's buffers are empty").isEqualTo(503);
        assertThat(recoveryMillis).as("recovery after the path came back, ms").isLessThan(15_000);
    }
}
