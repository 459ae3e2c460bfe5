package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.leafid.core.shard.ShardId;
import org.leafid.testing.RedisServerProcess;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;

/**
 * Shard mode under load: two servers on one database, one with each buffer (memory
 * and Redis lists), issuing IDs of the same apps, one app with a small {@code max_limit_id} that
 * the load spends; and a Redis-buffered server whose Redis is killed and started again under load.
 * Every ID is checked: no duplicate, the app's own bits, and below the limit.
 */
final class ShardScenario {

    static final int CLIENTS = 8;
    /** The IDs of the two-buffer load: more than the limited app has, so that its clients spend it. */
    static final long LOAD_IDS = Long.getLong("leaftest.shard-ids", 25_000);
    /** App ids of the fault suite's own in its database's id_alloc. */
    static final int OPEN_APP = 241;
    static final int LIMITED_APP = 242;
    static final int OUTAGE_APP = 243;
    /** Every index of the limited app is at most this: {@code max_limit_id = (MAX_INDEX + 1) << 14}. */
    static final long LIMITED_MAX_INDEX = 150;
    static final long LIMITED_MAX_LIMIT_ID = (LIMITED_MAX_INDEX + 1) << 14;
    private static final Duration OUTAGE_PHASE = Duration.ofSeconds(6);

    private ShardScenario() {}

    static void twoServersBothBuffers(FaultContext context, ScenarioResult result) throws Exception {
        context.database.insertApp(OPEN_APP, "fault-open", 200, 0);
        // Step 100: one or two blocks per shard before the limit. (Step 20 meant a load per 20 IDs on each of 64
        // shards, and on a CI machine running 2 servers and 8 clients on 2 cores a load could queue past the 1 s
        // load-wait: a 503 store-unavailable with no fault injected.)
        context.database.insertApp(LIMITED_APP, "fault-limited", 100, LIMITED_MAX_LIMIT_ID);
        LoadSummary run;
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            ServerProcess memory = shardServer(context, "shard-memory", "memory", redis.port());
            ServerProcess lists = shardServer(context, "shard-redis", "redis", redis.port());
            Fleet.startAll(List.of(memory, lists), Duration.ofSeconds(120));
            List<ClientSpec> specs = new ArrayList<>();
            for (ServerProcess server : List.of(memory, lists)) {
                for (int c = 0; c < CLIENTS / 2; c++) {
                    specs.add(ClientSpec.shard(server.name(), server.port(), c % 2 == 0 ? OPEN_APP : LIMITED_APP, 5));
                }
            }
            LoadRun load = LoadRun.start(specs);
            FaultContext.holdFor(load, LOAD_IDS);
            run = load.stop();
            assertThat(redisKeys(redis.port(), "id.gen.idList_" + OPEN_APP + "_*"))
                    .as("the Redis-buffered server keeps the open app's indexes in their lists").isPositive();
            memory.stop();
            lists.stop();
        }

        long[] open = FaultContext.ids(List.of(run), Mode.SHARD, spec -> spec.shardApp() == OPEN_APP);
        long[] limited = FaultContext.ids(List.of(run), Mode.SHARD, spec -> spec.shardApp() == LIMITED_APP);
        long[] all = FaultContext.ids(List.of(run), Mode.SHARD, spec -> true);
        long duplicates = IdChecks.duplicates(all).count();
        long foreign = Arrays.stream(open).filter(id -> ShardId.decode(id).appId() != OPEN_APP).count()
                + Arrays.stream(limited).filter(id -> ShardId.decode(id).appId() != LIMITED_APP).count();
        long overLimit = Arrays.stream(limited).filter(id -> id >= LIMITED_MAX_LIMIT_ID).count();
        long capacity = 64 * LIMITED_MAX_INDEX;
        Map<String, Long> errors = run.errors();
        Map<String, Long> unexpected = FaultContext.unexpected(errors, "shard 503 app-limit-reached*");

        result.load = ScenarioResult.load(run);
        result.fault = "none; app " + LIMITED_APP + " has max_limit_id " + LIMITED_MAX_LIMIT_ID + " (" + capacity
                + " IDs in all), spent by the load";
        result.idsChecked = all.length;
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(errors);
        result.note("Two servers on one database and app, one with the memory buffer and one with the Redis lists; "
                + "%d clients, half with a gate pass (1,000 users), batches of %d every 5th request.", CLIENTS,
                LoadRun.BATCH);
        result.note("App %d (no limit, step 200): %,d IDs. App %d (limit %,d, step 100): %,d IDs of the %,d below the limit, "
                + "%,d at or above it; %,d indexes reserved in id_alloc.", OPEN_APP, open.length, LIMITED_APP,
                LIMITED_MAX_LIMIT_ID, limited.length, capacity, overLimit, context.database.reservedIndexes(LIMITED_APP));

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(foreign).as("IDs without their app's bits").isZero();
        assertThat(overLimit).as("IDs at or above max_limit_id").isZero();
        assertThat((long) limited.length).as("IDs of the limited app").isBetween(1L, capacity);
        // No Retry-After on this 503: waiting does not help, an operator does.
        assertThat(errors).as("the limited app is spent within the run")
                .containsKey("shard 503 app-limit-reached, no Retry-After");
        assertThat(unexpected).as("errors other than the limit").isEmpty();
        assertThat(open.length).isPositive();
    }

    static void redisKilledUnderLoad(FaultContext context, ScenarioResult result) throws Exception {
        context.database.insertApp(OUTAGE_APP, "fault-outage", 50, 0);
        LoadSummary run;
        long listsBack;
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            ServerProcess server = shardServer(context, "shard-outage", "redis", redis.port());
            server.start().awaitReady(Duration.ofSeconds(90));
            List<ClientSpec> specs = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                specs.add(ClientSpec.shard(server.name(), server.port(), OUTAGE_APP, 5));
            }
            LoadRun load = LoadRun.start(specs);
            load.phase("before");
            FaultContext.holdFor(load, 15_000);
            load.phaseAfterDrain("redis down", Duration.ofSeconds(10));
            redis.kill();
            FaultContext.hold(OUTAGE_PHASE);
            load.phaseAfterDrain("redis back", Duration.ofSeconds(10));
            redis.restart();
            // The server goes back to Redis when it notices it again: the refilled lists are the sign,
            // awaited as a condition, then the load is held on them.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> redisKeys(redis.port(), "id.gen.idList_" + OUTAGE_APP + "_*") > 0);
            FaultContext.holdFor(load, 15_000);
            run = load.stop();
            // The restarted Redis is empty (no persistence): lists in it now were refilled by the server.
            listsBack = redisKeys(redis.port(), "id.gen.idList_" + OUTAGE_APP + "_*");
            server.stop();
        }

        long[] all = FaultContext.ids(List.of(run), Mode.SHARD, spec -> true);
        long duplicates = IdChecks.duplicates(all).count();
        Map<String, Long> errors = run.errors();
        result.load = ScenarioResult.load(run);
        result.fault = "the server's Redis killed (SIGKILL) for " + OUTAGE_PHASE.toSeconds() + " s under load, then "
                + "started again, empty";
        result.idsChecked = all.length;
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(errors);
        result.recovery = listsBack + " lists of the app refilled in the restarted Redis";
        result.note("IDs by phase: %,d before, %,d while Redis was down (from memory blocks reserved in the database), "
                + "%,d after it came back.", run.ids("before", Mode.SHARD), run.ids("redis down", Mode.SHARD),
                run.ids("redis back", Mode.SHARD));

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(errors).as("errors: the outage is bridged by memory blocks within the request timeout").isEmpty();
        assertThat(run.ids("redis down", Mode.SHARD)).as("IDs while Redis was down").isPositive();
        assertThat(run.ids("redis back", Mode.SHARD)).as("IDs after Redis came back").isPositive();
        assertThat(listsBack).as("lists in the restarted Redis: the server went back to them").isPositive();
    }

    private static ServerProcess shardServer(FaultContext context, String name, String buffer, int redisPort) {
        List<String> arguments = context.baseArguments("shard", "--leaf.shard.enable=true",
                "--leaf.shard.buffer=" + buffer, "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + redisPort);
        arguments.addAll(context.database.serverArguments(context.database.url()));
        return context.fleet.server(name, arguments, context.database.serverEnvironment());
    }

    /** How many keys match a pattern, by redis-cli's SCAN. */
    private static long redisKeys(int port, String pattern) throws IOException, InterruptedException {
        Process cli = new ProcessBuilder("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port), "--scan",
                "--pattern", pattern).redirectErrorStream(true).start();
        String out = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!cli.waitFor(10, TimeUnit.SECONDS) || cli.exitValue() != 0) {
            throw new IllegalStateException("redis-cli --scan failed on port " + port + ": " + out);
        }
        return out.lines().filter(line -> !line.isBlank()).count();
    }
}
