package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.leafid.faulthook.FaultClockConfiguration;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;

/**
 * The clock moved back under load, through the {@code fault-injection} profile's hook
 * ({@code POST /fault/clock}): 20 steps back of 3 ms are waited out without an error, a step
 * back of 10 s is refused with 503 {@code clock-moved-backwards}, and once the clock is right
 * again IDs flow; never a repeat. Segment IDs do not depend on the clock and must not notice.
 */
final class ClockScenario {

    static final int CLIENTS = 8;
    static final int SMALL_STEPS = 20;
    static final long SMALL_STEP_MILLIS = 3;
    static final long LARGE_STEP_MILLIS = 10_000;
    static final Duration LARGE_STEP_HELD = Duration.ofSeconds(4);

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private ClockScenario() {}

    /** The fault hook's classes, copied from the test classes by the build (leaf-server/pom.xml). */
    private static final Path FAULT_HOOK = Path.of(System.getProperty("leaftest.fault-hook", "target/fault-hook"))
            .toAbsolutePath();

    static void run(FaultContext context, ScenarioResult result) throws Exception {
        String tag = context.newTag("clock", 1, 1000);
        LoadSummary run;
        long refusedAfterMillis;
        long recoveryMillis;
        String firstAfterRestore;
        double backwardsAfterSmallSteps;
        double backwardsAtEnd;
        List<String> arguments = context.baseArguments("clock", "--spring.profiles.active=fault-injection",
                "--spring.main.sources=" + FaultClockConfiguration.class.getName());
        arguments.addAll(context.database.serverArguments(context.database.url()));
        // The hook is not in the jar: it comes ahead of the jar on the class path (see FaultClockConfiguration).
        ServerProcess server = context.fleet.server("clock", arguments, context.database.serverEnvironment())
                .withClasses(FAULT_HOOK);
        server.start().awaitReady(Duration.ofSeconds(90));
        List<ClientSpec> specs = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            specs.add(new ClientSpec(server.name(), server.port(), tag, true, 5));
        }
        LoadRun load = LoadRun.start(specs);
        FaultContext.holdFor(load, 15_000);

        load.phase("3 ms steps back");
        long offset = 0;
        LongList probed = new LongList(); // a step back is visible for 3 ms only: one request meets each at once
        for (int i = 0; i < SMALL_STEPS; i++) {
            offset -= SMALL_STEP_MILLIS;
            setOffset(server, offset);
            probed.add(snowflakeId(server));
            FaultContext.hold(Duration.ofMillis(150));
        }
        FaultContext.hold(Duration.ofSeconds(1));
        backwardsAfterSmallSteps = metric(server, "leaf_snowflake_clock_backward_total");

        load.phaseAfterDrain("10 s back", Duration.ofSeconds(10));
        LoadWatch refused = load.watch(null, Mode.SNOWFLAKE, outcome -> outcome.status() != 200);
        offset -= LARGE_STEP_MILLIS;
        setOffset(server, offset);
        refusedAfterMillis = refused.awaitMillis(Duration.ofSeconds(10), "snowflake refusal after the 10 s step");
        FaultContext.hold(LARGE_STEP_HELD);

        load.phase("clock right again");
        LoadWatch back = load.watch(null, Mode.SNOWFLAKE, outcome -> outcome.status() == 200);
        setOffset(server, 0);
        recoveryMillis = back.awaitMillis(Duration.ofSeconds(30), "snowflake ID after the clock was set right");
        FaultContext.holdFor(load, 15_000);
        run = load.stop();
        long lastErrorMillis = load.lastErrorNanos("clock right again").stream()
                .map(nanos -> (nanos - back.sinceNanos()) / 1_000_000).findFirst().orElse(0);
        backwardsAtEnd = metric(server, "leaf_snowflake_clock_backward_total");
        server.stop();
        LoadRun.Outcome firstRefusal = refused.first();
        firstAfterRestore = ScenarioResult.errors(run.errors("clock right again"));

        long[] snowflake = FaultContext.ids(List.of(run), Mode.SNOWFLAKE, spec -> true);
        long[] all = Arrays.copyOf(snowflake, snowflake.length + probed.size());
        System.arraycopy(probed.toArray(), 0, all, snowflake.length, probed.size());
        long duplicates = IdChecks.duplicates(FaultContext.ids(List.of(run), Mode.SEGMENT, spec -> true)).count()
                + IdChecks.duplicates(all).count();
        List<String> notIncreasing = new ArrayList<>(FaultContext.notIncreasing(run, Mode.SEGMENT));
        notIncreasing.addAll(FaultContext.notIncreasing(run, Mode.SNOWFLAKE));

        result.load = ScenarioResult.load(run);
        result.fault = SMALL_STEPS + " clock steps back of 3 ms (one per 150 ms), then one of 10 s held "
                + LARGE_STEP_HELD.toSeconds() + " s, then the clock set right (fault-injection profile)";
        result.idsChecked = run.ids() + probed.size();
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(run.errors());
        result.recovery = "first snowflake ID " + ScenarioResult.millis(recoveryMillis) + " after the clock was set right"
                + (lastErrorMillis > recoveryMillis ? "; last 503 " + ScenarioResult.millis(lastErrorMillis) + " after it"
                        : "");
        result.note("3 ms steps: %,.0f backward clock events counted by the server (a probe request follows each step "
                + "at once; load requests meet a step only if they arrive within its 3 ms), all waited out; errors: %s; "
                + "%,d snowflake IDs issued meanwhile.", backwardsAfterSmallSteps,
                ScenarioResult.errors(run.errors("3 ms steps back")), run.ids("3 ms steps back", Mode.SNOWFLAKE));
        result.note("10 s step: first refusal after %s (%s); errors while it held: %s.",
                ScenarioResult.millis(refusedAfterMillis), firstRefusal.key(),
                ScenarioResult.errors(run.errors("10 s back")));
        result.note("After the clock was set right: errors %s; leaf_snowflake_clock_backward_total %,.0f at the end.",
                firstAfterRestore, backwardsAtEnd);
        result.note("The server logged %,d WARN lines \"Refused a snowflake ID\", one per refused request.",
                server.logLines("Refused a snowflake ID"));

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(notIncreasing).as("clients whose IDs did not increase").isEmpty();
        assertThat(run.errors("load")).as("errors before any step").isEmpty();
        assertThat(run.errors("3 ms steps back")).as("errors during the 3 ms steps (they are waited out)").isEmpty();
        assertThat(backwardsAfterSmallSteps).as("the server saw the 3 ms steps").isPositive();
        assertThat(IdChecks.firstNotIncreasing(probed)).as("probe IDs across the 3 ms steps increase").isNegative();
        assertThat(firstRefusal.key()).isEqualTo("snowflake 503 clock-moved-backwards");
        assertThat(FaultContext.unexpected(run.errors(), "snowflake 503 clock-moved-backwards",
                "snowflake 503 worker-id-unavailable")).as("errors other than the clock's 503s").isEmpty();
        assertThat(run.ids("clock right again", Mode.SNOWFLAKE)).as("snowflake IDs after the clock was right")
                .isPositive();
    }

    /** Sets the server's clock offset through the fault-injection hook. */
    static void setOffset(ServerProcess server, long offsetMillis) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/fault/clock?offsetMillis=" + offsetMillis)).timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("POST /fault/clock").isEqualTo(200);
        assertThat(response.body()).contains("\"offsetMillis\":" + offsetMillis);
    }

    /** One snowflake ID, which must be issued. */
    static long snowflakeId(ServerProcess server) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/api/snowflake/get/probe")).timeout(Duration.ofSeconds(5)).GET().build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("snowflake ID right after a 3 ms step back: " + response.body())
                .isEqualTo(200);
        return Long.parseLong(response.body().trim());
    }

    /** A counter or gauge from /actuator/prometheus (the first series of that name). */
    static double metric(ServerProcess server, String name) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/actuator/prometheus")).timeout(Duration.ofSeconds(5)).GET().build();
        String body = HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
        return body.lines().filter(line -> line.startsWith(name + " ") || line.startsWith(name + "{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).findFirst()
                .orElseThrow(() -> new AssertionError(name + " not in /actuator/prometheus"));
    }
}
