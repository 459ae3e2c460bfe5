package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.leafid.testing.RedisServerProcess;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;

/**
 * {@code leaf.snowflake.mode=redis} with Redis losing every key under load, on a redis-server of
 * the scenario's own (no persistence): two instances, one of them killed ({@code kill -9}); a
 * FLUSHALL; Redis killed and started again empty, a third instance started while it is down
 * (refused, naming Redis) and again once it is back; the killed one restarted. Every snowflake ID
 * any client got is checked: none may repeat. After each loss the instances stop within their
 * reservation (a 503 naming the worker id), and issue again only a lease after it.
 */
final class RedisWorkerIdScenario {

    static final int CLIENTS_PER_INSTANCE = 4;
    static final long REPORT_INTERVAL_MILLIS = 500;
    static final String REPORT_INTERVAL = REPORT_INTERVAL_MILLIS + "ms";
    /**
     * How long after a loss a holder may still issue: its reservation reaches 2 x the report
     * interval past its last renewal, which came before the loss; plus the answer's time on the wire.
     */
    static final long HORIZON_MILLIS = 2 * REPORT_INTERVAL_MILLIS + 500;
    /** The shortest lease the configuration accepts with this report interval (2 x 500 ms + 10 s). */
    static final Duration LEASE = Duration.ofSeconds(11);
    static final Duration RECOVERY_BOUND = Duration.ofSeconds(60);
    static final String REFUSED = "snowflake 503 worker-id-unavailable";

    private RedisWorkerIdScenario() {}

    static void run(FaultContext context, ScenarioResult result) throws Exception {
        RedisClient admin = RedisClient.create();
        try (RedisServerProcess redis = RedisServerProcess.start();
                StatefulRedisConnection<String, String> flusher = admin.connect(RedisURI.create("127.0.0.1",
                        redis.port()))) {
            List<String> arguments = context.baseArguments("redis-workers", "--leaf.segment.enable=false",
                    "--leaf.snowflake.mode=redis", "--leaf.snowflake.report-interval=" + REPORT_INTERVAL,
                    "--leaf.snowflake.redis.lease=" + LEASE.toSeconds() + "s", "--spring.data.redis.host=127.0.0.1",
                    "--spring.data.redis.port=" + redis.port());
            ServerProcess killed = context.fleet.server("redis-killed", arguments, Map.of());
            ServerProcess survivor = context.fleet.server("redis-survivor", arguments, Map.of());
            ServerProcess third = context.fleet.server("redis-third", arguments, Map.of());
            long poolStarted = System.nanoTime();
            Fleet.startAll(List.of(killed, survivor), Duration.ofSeconds(120));
            long firstStartMillis = (System.nanoTime() - poolStarted) / 1_000_000;

            // Clients for all three from the start: the third's and the killed one's knock while
            // their process is down or starting ("no answer").
            List<ClientSpec> specs = new ArrayList<>();
            for (int c = 0; c < CLIENTS_PER_INSTANCE; c++) {
                for (ServerProcess server : List.of(killed, survivor, third)) {
                    specs.add(new ClientSpec(server.name(), server.port(), null, true, 5));
                }
            }
            LoadRun load = LoadRun.start(specs);
            FaultContext.holdFor(load, 6_000);

            load.phase("instance killed");
            killed.kill();
            FaultContext.holdFor(load, 4_000);

            load.phaseAfterDrain("flushall", Duration.ofSeconds(10));
            LoadWatch flushStopped = load.watch(survivor.name(), Mode.SNOWFLAKE, outcome -> outcome.status() != 200);
            LoadWatch flushBack = load.watch(survivor.name(), Mode.SNOWFLAKE,
                    outcome -> outcome.status() == 200 && outcome.startedNanos() > flushStopped.sinceNanos()
                            && flushStopped.first() != null);
            // Connected beforehand: the time taken is the FLUSHALL's own, not a client's start.
            long flushedAt = System.currentTimeMillis();
            flusher.sync().flushall();
            long flushStopMillis = flushStopped.awaitMillis(Duration.ofSeconds(10), "refusal after the FLUSHALL");
            long flushBackMillis = flushBack.awaitMillis(RECOVERY_BOUND, "ID after the FLUSHALL");
            FaultContext.holdFor(load, 4_000);

            load.phaseAfterDrain("redis down", Duration.ofSeconds(10));
            long downAt = System.currentTimeMillis();
            redis.kill();
            third.start();
            int thirdExit = third.awaitExit(Duration.ofSeconds(90));
            String summary = "Snowflake could not start: ";
            String thirdReason = third.logText().lines().filter(line -> line.contains(summary))
                    .map(line -> line.substring(line.indexOf(summary) + summary.length())).findFirst().orElse("");

            load.phase("redis back");
            LoadWatch restartBack = load.watch(survivor.name(), Mode.SNOWFLAKE, outcome -> outcome.status() == 200);
            long restartedAt = System.currentTimeMillis();
            redis.restart();
            killed.start();
            third.start();
            long restartBackMillis = restartBack.awaitMillis(RECOVERY_BOUND, "ID after Redis came back");
            killed.awaitReady(RECOVERY_BOUND);
            third.awaitReady(RECOVERY_BOUND);
            load.phase("all back");
            FaultContext.holdFor(load, 6_000);
            LoadSummary run = load.stop();

            long[] all = FaultContext.ids(List.of(run), Mode.SNOWFLAKE, spec -> true);
            IdChecks.Duplicates duplicates = IdChecks.duplicates(all);
            List<String> notIncreasing = FaultContext.notIncreasing(run, Mode.SNOWFLAKE);
            long firstAfterHorizon = minTimeAtOrAfter(all, flushedAt + HORIZON_MILLIS);
            List<List<Integer>> finalWorkerIds = new ArrayList<>();
            for (ServerProcess server : List.of(killed, survivor, third)) {
                finalWorkerIds.add(FaultContext.workerIds(FaultContext.ids(List.of(run), Mode.SNOWFLAKE,
                        spec -> spec.instance().equals(server.name()))));
            }

            result.load = ScenarioResult.load(run);
            result.fault = "redis mode (report interval " + REPORT_INTERVAL + ", lease " + LEASE.toSeconds() + " s), "
                    + "2 instances under load: one killed (kill -9), FLUSHALL, Redis killed and restarted empty ("
                    + ScenarioResult.millis(restartedAt - downAt) + " down), a third instance started during the "
                    + "outage and after it, the killed one restarted";
            result.idsChecked = all.length;
            result.duplicates = duplicates.count();
            result.errors = ScenarioResult.errors(run.errors());
            result.recovery = "FLUSHALL: refusing " + ScenarioResult.millis(flushStopMillis) + " after it, IDs again "
                    + ScenarioResult.millis(flushBackMillis) + " after it; Redis restart: IDs again "
                    + ScenarioResult.millis(restartBackMillis) + " after it came back";
            result.note("The new pool's first start waited a lease: both instances ready %,d ms after their start.",
                    firstStartMillis);
            result.note("After the FLUSHALL no ID carries a time from %,d ms (the holders' horizon) to the lease's end: "
                    + "the first one past the horizon is %,d ms after the FLUSHALL (lease %,d ms).", HORIZON_MILLIS,
                    firstAfterHorizon - flushedAt, LEASE.toMillis());
            result.note("The third instance, started while Redis was down: exit code %d, `%s`.", thirdExit,
                    thirdReason.strip());
            result.note("Worker ids at the end (killed and restarted, survivor, third): %s.", finalWorkerIds);
            result.note("IDs by phase: %,d before the kill, %,d with one instance killed, %,d from the FLUSHALL, "
                    + "%,d while Redis was down, %,d after it came back, %,d with all three.",
                    run.ids("load", Mode.SNOWFLAKE), run.ids("instance killed", Mode.SNOWFLAKE),
                    run.ids("flushall", Mode.SNOWFLAKE), run.ids("redis down", Mode.SNOWFLAKE),
                    run.ids("redis back", Mode.SNOWFLAKE), run.ids("all back", Mode.SNOWFLAKE));
            killed.stop();
            survivor.stop();
            third.stop();

            assertThat(duplicates.count()).as("duplicate IDs, e.g. %s", duplicates.examples()).isZero();
            assertThat(notIncreasing).as("clients whose IDs did not increase").isEmpty();
            assertThat(flushStopped.first().key()).isEqualTo(REFUSED);
            assertThat(firstAfterHorizon - flushedAt).as("ms from the FLUSHALL to the first ID past the horizon")
                    .isGreaterThanOrEqualTo(LEASE.toMillis());
            assertThat(thirdExit).as("exit code of the third instance without Redis").isNotZero();
            assertThat(thirdReason).as("the log says why").contains("spring.data.redis");
            assertThat(run.ids("all back", Mode.SNOWFLAKE)).as("IDs with all three back").isPositive();
            assertThat(finalWorkerIds.stream().flatMap(List::stream).distinct().count())
                    .as("worker ids of the three at the end, each its own").isGreaterThanOrEqualTo(3);
            assertThat(FaultContext.unexpected(run.errors(), REFUSED, "snowflake no answer*"))
                    .as("errors other than refusals and no answer while a process was down").isEmpty();
        } finally {
            admin.shutdown();
        }
    }

    /** The earliest time of an ID at or after {@code from}, or -1. */
    private static long minTimeAtOrAfter(long[] ids, long from) {
        long min = Long.MAX_VALUE;
        for (long id : ids) {
            long time = FaultContext.LAYOUT.decode(id).timestampMillis();
            if (time >= from) {
                min = Math.min(min, time);
            }
        }
        return min == Long.MAX_VALUE ? -1 : min;
    }
}
