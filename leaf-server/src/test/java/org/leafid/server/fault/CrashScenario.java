package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.curator.test.TestingServer;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;

/**
 * {@code kill -9} of an instance under load, then a start on the same port and data directory:
 * the segment IDs go on past the killed instance's blocks (the unused rest is skipped, never
 * reissued) and the snowflake IDs keep the worker id and go on in time.
 */
final class CrashScenario {

    static final int CLIENTS = 8;
    /** IDs before the kill and after the restart (a few seconds each at the build machine's rate). */
    static final long BEFORE_IDS = 40_000;
    static final long AFTER_IDS = 40_000;

    private CrashScenario() {}

    static void run(FaultContext context, ScenarioResult result) throws Exception {
        String tag = context.newTag("crash", 1, 1000);
        LoadSummary before;
        LoadSummary after;
        long maxIdAtKill;
        long downMillis;
        long recoveryMillis;
        try (TestingServer zookeeper = new TestingServer(true)) {
            List<String> arguments = context.baseArguments("crash", "--leaf.snowflake.mode=zk_normal",
                    "--leaf.snowflake.zk.address=" + zookeeper.getConnectString());
            arguments.addAll(context.database.serverArguments(context.database.url()));
            ServerProcess server = context.fleet.server("crash", arguments, context.database.serverEnvironment());
            server.start().awaitReady(Duration.ofSeconds(90));
            List<ClientSpec> specs = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                specs.add(new ClientSpec(server.name(), server.port(), tag, true, 5));
            }

            LoadRun first = LoadRun.start(specs);
            FaultContext.holdFor(first, BEFORE_IDS);
            long killedNanos = System.nanoTime();
            server.kill();
            maxIdAtKill = context.database.maxId(tag);
            before = first.stop();

            long restartNanos = System.nanoTime();
            server.start();
            LoadRun second = LoadRun.start(specs); // clients knock while the process boots
            LoadWatch back = second.watch(null, null, outcome -> outcome.status() == 200);
            back.awaitMillis(Duration.ofSeconds(90), "ID after the restart");
            downMillis = (restartNanos - killedNanos) / 1_000_000;
            recoveryMillis = (back.first().doneNanos() - killedNanos) / 1_000_000;
            server.awaitReady(Duration.ofSeconds(30));
            FaultContext.holdFor(second, AFTER_IDS);
            after = second.stop();
            server.stop();
            result.note("Restart: %s", server.logText().lines()
                    .filter(line -> line.contains("waiting") && line.contains("recorded reservation")).findFirst()
                    .map(line -> "the new process waited for the clock: " + line.substring(line.indexOf("Worker id")))
                    .orElse("no wait for the clock was needed (the JVM start took longer than the reservation's lead)"));
        }

        long[] segmentBefore = FaultContext.ids(List.of(before), Mode.SEGMENT, spec -> true);
        long[] segmentAfter = FaultContext.ids(List.of(after), Mode.SEGMENT, spec -> true);
        long[] snowBefore = FaultContext.ids(List.of(before), Mode.SNOWFLAKE, spec -> true);
        long[] snowAfter = FaultContext.ids(List.of(after), Mode.SNOWFLAKE, spec -> true);
        long duplicates = IdChecks.duplicates(FaultContext.ids(List.of(before, after), Mode.SEGMENT, spec -> true))
                .count() + IdChecks.duplicates(FaultContext.ids(List.of(before, after), Mode.SNOWFLAKE, spec -> true))
                .count();
        long lastSegment = IdChecks.max(segmentBefore);
        long firstSegmentAfter = IdChecks.min(segmentAfter);
        long lastTime = FaultContext.LAYOUT.decode(IdChecks.max(snowBefore)).timestampMillis();
        long firstTimeAfter = FaultContext.LAYOUT.decode(IdChecks.min(snowAfter)).timestampMillis();
        List<Integer> workersBefore = FaultContext.workerIds(snowBefore);
        List<Integer> workersAfter = FaultContext.workerIds(snowAfter);
        List<String> notIncreasing = new ArrayList<>();
        for (LoadSummary run : List.of(before, after)) {
            notIncreasing.addAll(FaultContext.notIncreasing(run, Mode.SEGMENT));
            notIncreasing.addAll(FaultContext.notIncreasing(run, Mode.SNOWFLAKE));
        }
        Map<String, Long> errors = new TreeMap<>(before.errors());
        after.errors().forEach((key, count) -> errors.merge(key, count, Long::sum));

        result.load = ScenarioResult.load(before) + " before the kill; the same clients through the restart and "
                + String.format(java.util.Locale.ROOT, "%,d", AFTER_IDS) + " IDs after it";
        result.fault = "kill -9 under load, restart on the same port and data dir (snowflake zk_normal, segment step 1000)";
        result.idsChecked = before.ids() + after.ids();
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(errors);
        result.recovery = "first ID " + ScenarioResult.millis(recoveryMillis) + " after the kill (new process started "
                + ScenarioResult.millis(downMillis) + " after it)";
        result.note("Segment: last ID before the kill %,d; max_id at the kill %,d; first ID after the restart %,d: "
                + "%,d numbers of the killed instance's blocks skipped, none reissued.", lastSegment, maxIdAtKill,
                firstSegmentAfter, firstSegmentAfter - lastSegment - 1);
        result.note("Snowflake: worker id %s before, %s after; last timestamp before %d, first after %d (+%,d ms).",
                workersBefore, workersAfter, lastTime, firstTimeAfter, firstTimeAfter - lastTime);

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(notIncreasing).as("clients whose IDs did not increase").isEmpty();
        assertThat(firstSegmentAfter).as("first segment ID after the restart").isGreaterThan(lastSegment)
                .isGreaterThanOrEqualTo(maxIdAtKill);
        assertThat(workersAfter).as("worker id after the restart").hasSize(1).isEqualTo(workersBefore);
        assertThat(firstTimeAfter).as("first snowflake timestamp after the restart").isGreaterThan(lastTime);
        assertThat(FaultContext.unexpected(errors, "segment no answer*", "snowflake no answer*"))
                .as("errors other than no answer while the process was down").isEmpty();
    }
}
