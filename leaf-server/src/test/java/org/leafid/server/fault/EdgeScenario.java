package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.leafid.core.shard.ShardId;
import org.leafid.testing.RedisServerProcess;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;

/**
 * Where features meet operators' habits: servers with and without an opaque key on one app, an
 * app deleted and inserted again under load, {@code leaf_alloc.max_id} set back under load, and a
 * Redis list that goes back in time (a replica promoted while it lagged). Every ID is collected
 * and checked for duplicates; the high-water marks and the app modes are what keep them apart.
 */
final class EdgeScenario {

    /** The IDs of a scenario's steady load; its phases take parts of it. */
    static final long LOAD_IDS = Long.getLong("leaftest.edge-ids", 40_000);
    /** How often max_id is set back, one set-back per {@link #SET_BACK_EVERY_IDS} IDs. */
    static final int SET_BACKS = 6;
    static final long SET_BACK_EVERY_IDS = 15_000;
    private static final int CLIENTS = 8;
    /** App ids of these scenarios in the fault database's id_alloc (ShardScenario has 241..243). */
    static final int MIXED_APP_A = 244;
    static final int MIXED_APP_B = 245;
    static final int RECREATED_APP = 246;
    static final int LAGGING_APP = 247;
    static final int RECREATED_BY_SQL_APP = 248;
    private static final String KEY = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
    private static final Pattern MOVED_BACK = Pattern.compile(
            "leaf_numbers_moved_back_total\\{[^}]*table=\"([a-z_]+)\"[^}]*} ([0-9.E]+)");

    private EdgeScenario() {}

    /** A server with the key and one without, both started on two apps that neither has seen. */
    static void mixedKeyFleet(FaultContext context, ScenarioResult result) throws Exception {
        // The earlier scenarios' apps are recorded plain: the keyed server would refuse them too, and its readiness
        // would say so whichever way these two apps went. Only this scenario's two apps are listed.
        context.database.forgetApps();
        context.database.insertApp(MIXED_APP_A, "fault-mixed-a", 200, 1L << 32);
        context.database.insertApp(MIXED_APP_B, "fault-mixed-b", 200, 1L << 32);
        try {
            mixedKeyLoad(context, result);
        } finally {
            // Whichever server won an app recorded its mode; the later scenarios' servers have no key, and an app
            // recorded opaque would keep them from being ready.
            context.database.forgetApps(MIXED_APP_A, MIXED_APP_B);
        }
    }

    private static void mixedKeyLoad(FaultContext context, ScenarioResult result) throws Exception {
        ServerProcess plain = shardServer(context, "mixed-plain", "memory", 0, null);
        ServerProcess keyed = shardServer(context, "mixed-keyed", "memory", 0, KEY);
        // Started together: whichever reads an app first records its mode. A server that may not serve an app
        // is live but not ready (readiness names the app), so liveness is what is waited for here.
        List.of(plain, keyed).forEach(ServerProcess::start);
        List.of(plain, keyed).forEach(server -> server.awaitLive(Duration.ofSeconds(120)));
        List<ClientSpec> specs = new ArrayList<>();
        for (ServerProcess server : List.of(plain, keyed)) {
            for (int c = 0; c < CLIENTS / 2; c++) {
                specs.add(ClientSpec.shard(server.name(), server.port(), c % 2 == 0 ? MIXED_APP_A : MIXED_APP_B, 5));
            }
        }
        LoadRun load = LoadRun.start(specs);
        FaultContext.holdFor(load, LOAD_IDS);
        LoadSummary run = load.stop();
        Map<String, Integer> readiness = new LinkedHashMap<>();
        for (ServerProcess server : List.of(plain, keyed)) {
            readiness.put(server.name(), server.status("/actuator/health/readiness"));
            server.stop();
        }

        long[] all = FaultContext.ids(List.of(run), Mode.SHARD, spec -> true);
        long duplicates = IdChecks.duplicates(all).count();
        Map<String, Long> servedBy = new LinkedHashMap<>();
        for (int app : new int[] {MIXED_APP_A, MIXED_APP_B}) {
            for (ServerProcess server : List.of(plain, keyed)) {
                long ids = FaultContext.ids(List.of(run), Mode.SHARD,
                        spec -> spec.shardApp() == app && spec.instance().equals(server.name())).length;
                servedBy.put("app " + app + " by " + server.name(), ids);
            }
        }
        Map<String, Long> errors = run.errors();
        result.load = ScenarioResult.load(run);
        result.fault = "servers with and without leaf.shard.opaque-key on two new apps of one database";
        result.idsChecked = all.length;
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(errors);
        result.recovery = "each app served by one mode only";
        result.note("IDs by app and server: %s. The first server to read each app recorded its mode in "
                + "leaf_shard_key; the other answered 503 app-mode-conflict. Readiness after the load (200 UP, 503 "
                + "DOWN naming the refused apps): %s.", servedBy, readiness);

        assertThat(duplicates).as("duplicate IDs").isZero();
        for (int app : new int[] {MIXED_APP_A, MIXED_APP_B}) {
            long byPlain = servedBy.get("app " + app + " by " + plain.name());
            long byKeyed = servedBy.get("app " + app + " by " + keyed.name());
            assertThat(byPlain == 0 || byKeyed == 0).as("app %d served by one mode only: %d plain, %d keyed IDs", app,
                    byPlain, byKeyed).isTrue();
            assertThat(byPlain + byKeyed).as("IDs of app %d", app).isPositive();
        }
        for (ServerProcess server : List.of(plain, keyed)) {
            boolean refusedAnApp = run.errorsOf(server.name()).keySet().stream()
                    .anyMatch(error -> error.contains("app-mode-conflict"));
            assertThat(readiness.get(server.name())).as("readiness of %s", server.name())
                    .isEqualTo(refusedAnApp ? 503 : 200);
        }
        assertThat(FaultContext.unexpected(errors, "shard 503 app-mode-conflict*")).as("other errors").isEmpty();
    }

    /** Two servers (memory and Redis buffers) serve an app whose rows are deleted and inserted again at 0. */
    static void appDeletedAndCreatedAgain(FaultContext context, ScenarioResult result) throws Exception {
        context.database.insertApp(RECREATED_APP, "fault-recreated", 50, 0);
        LoadSummary run;
        Map<String, Double> movedBack = new LinkedHashMap<>();
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            ServerProcess memory = shardServer(context, "recreate-memory", "memory", redis.port(), null);
            ServerProcess lists = shardServer(context, "recreate-redis", "redis", redis.port(), null);
            Fleet.startAll(List.of(memory, lists), Duration.ofSeconds(120));
            List<ClientSpec> specs = new ArrayList<>();
            for (ServerProcess server : List.of(memory, lists)) {
                for (int c = 0; c < CLIENTS / 2; c++) {
                    specs.add(ClientSpec.shard(server.name(), server.port(), RECREATED_APP, 5));
                }
            }
            LoadRun load = LoadRun.start(specs);
            load.phase("before");
            FaultContext.holdFor(load, LOAD_IDS / 4);
            load.phase("deleted");
            context.database.update("DELETE FROM id_alloc WHERE app_id = ?", RECREATED_APP);
            FaultContext.hold(Duration.ofSeconds(2));
            load.phase("created again");
            context.database.insertRows(RECREATED_APP, "fault-recreated", 50, 0);
            FaultContext.holdFor(load, LOAD_IDS / 2); // counted once the rows are back
            run = load.stop();
            for (ServerProcess server : List.of(memory, lists)) {
                movedBack.put(server.name(), movedBack(server, "id_alloc"));
                server.stop();
            }
        }

        long[] all = FaultContext.ids(List.of(run), Mode.SHARD, spec -> true);
        long duplicates = IdChecks.duplicates(all).count();
        long foreign = Arrays.stream(all).filter(id -> ShardId.decode(id).appId() != RECREATED_APP).count();
        Map<String, Long> errors = run.errors();
        result.load = ScenarioResult.load(run);
        result.fault = "app " + RECREATED_APP + "'s 64 id_alloc rows deleted under load, inserted again at max_id 0 "
                + "2 s later (memory and Redis buffers)";
        result.idsChecked = all.length;
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(errors);
        result.recovery = "reservations moved past the high-water mark: " + movedBack;
        result.note("IDs by phase: %,d before, %,d while the rows were gone (from blocks already held), %,d after they "
                + "were inserted again.", run.ids("before", Mode.SHARD), run.ids("deleted", Mode.SHARD),
                run.ids("created again", Mode.SHARD));

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(foreign).as("IDs of another app").isZero();
        assertThat(run.ids("created again", Mode.SHARD)).as("IDs after the rows came back").isPositive();
        assertThat(movedBack.values().stream().mapToDouble(Double::doubleValue).sum())
                .as("reservations that found their row below the mark").isPositive();
    }

    /**
     * An app issued plainly, then re-created by SQL with its mode record gone (its {@code id_alloc} and
     * {@code leaf_shard_key} rows deleted, 64 rows inserted at {@code max_id} 0), and a server with an
     * opaque key started on it: the mode kept in {@code leaf_high_water} says the app is plain, so the
     * keyed server refuses it, and the plain server issues on above the mark.
     */
    static void appReCreatedBySqlWithoutItsMode(FaultContext context, ScenarioResult result) throws Exception {
        context.database.forgetApps(RECREATED_BY_SQL_APP);
        context.database.insertApp(RECREATED_BY_SQL_APP, "fault-sql-recreated", 50, 0);
        try {
            reCreatedBySqlLoad(context, result);
        } finally {
            context.database.forgetApps(RECREATED_BY_SQL_APP);
        }
    }

    private static void reCreatedBySqlLoad(FaultContext context, ScenarioResult result) throws Exception {
        ServerProcess plain = shardServer(context, "sqlrecreate-plain", "memory", 0, null);
        plain.start().awaitReady(Duration.ofSeconds(120));
        List<ClientSpec> plainClients = new ArrayList<>();
        for (int c = 0; c < CLIENTS / 2; c++) {
            plainClients.add(ClientSpec.shard(plain.name(), plain.port(), RECREATED_BY_SQL_APP, 5));
        }
        LoadRun before = LoadRun.start(plainClients);
        FaultContext.holdFor(before, LOAD_IDS / 2);
        LoadSummary plainRun = before.stop();
        plain.stop();

        context.database.update("DELETE FROM id_alloc WHERE app_id = ?", RECREATED_BY_SQL_APP);
        context.database.update("DELETE FROM leaf_shard_key WHERE app_id = ?", RECREATED_BY_SQL_APP);
        context.database.insertRows(RECREATED_BY_SQL_APP, "fault-sql-recreated", 50, 0);

        ServerProcess keyed = shardServer(context, "sqlrecreate-keyed", "memory", 0, KEY);
        List.of(plain, keyed).forEach(ServerProcess::start);
        // The keyed server refuses the app and is not ready (readiness names it): liveness is what is awaited.
        List.of(plain, keyed).forEach(server -> server.awaitLive(Duration.ofSeconds(120)));
        List<ClientSpec> specs = new ArrayList<>();
        for (ServerProcess server : List.of(plain, keyed)) {
            for (int c = 0; c < CLIENTS / 2; c++) {
                specs.add(ClientSpec.shard(server.name(), server.port(), RECREATED_BY_SQL_APP, 5));
            }
        }
        LoadRun after = LoadRun.start(specs);
        FaultContext.holdFor(after, LOAD_IDS / 2);
        LoadSummary bothRun = after.stop();
        for (ServerProcess server : List.of(plain, keyed)) {
            server.stop();
        }

        long[] all = FaultContext.ids(List.of(plainRun, bothRun), Mode.SHARD, spec -> true);
        long duplicates = IdChecks.duplicates(all).count();
        long byKeyed = FaultContext.ids(List.of(bothRun), Mode.SHARD, spec -> spec.instance().equals(keyed.name()))
                .length;
        long plainAfter = FaultContext.ids(List.of(bothRun), Mode.SHARD, spec -> spec.instance().equals(plain.name()))
                .length;
        Map<String, Long> errors = bothRun.errors();
        result.load = ScenarioResult.load(plainRun) + "; then " + ScenarioResult.load(bothRun);
        result.fault = "app " + RECREATED_BY_SQL_APP + " issued plainly, its id_alloc and leaf_shard_key rows deleted "
                + "and 64 rows inserted at max_id 0 by SQL, then a server with leaf.shard.opaque-key started beside "
                + "the plain one";
        result.idsChecked = all.length;
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(errors);
        result.recovery = "the app's mode put back from leaf_high_water: plain";
        result.note("%,d IDs before the SQL; after it %,d by the plain server and %,d by the keyed one (503 "
                + "app-mode-conflict).", plainRun.ids(Mode.SHARD), plainAfter, byKeyed);

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(byKeyed).as("IDs by the keyed server").isZero();
        assertThat(plainAfter).as("IDs by the plain server after the SQL").isPositive();
        assertThat(context.database.number("SELECT COUNT(*) FROM leaf_shard_key WHERE app_id = ? AND fingerprint = "
                + "'plain'", RECREATED_BY_SQL_APP)).as("the mode put back").isOne();
        assertThat(FaultContext.unexpected(errors, "shard 503 app-mode-conflict*")).as("other errors").isEmpty();
    }

    /** Two servers on one tag while an operator sets its max_id back, again and again. */
    static void maxIdSetBack(FaultContext context, ScenarioResult result) throws Exception {
        String tag = context.newTag("setback", 1, 1000);
        List<ServerProcess> servers = new ArrayList<>();
        for (String name : List.of("setback-1", "setback-2")) {
            List<String> arguments = context.baseArguments(name, "--leaf.snowflake.enable=false",
                    "--leaf.segment.max-step=2000");
            arguments.addAll(context.database.serverArguments(context.database.url()));
            servers.add(context.fleet.server(name, arguments, context.database.serverEnvironment()));
        }
        Fleet.startAll(servers, Duration.ofSeconds(120));
        List<ClientSpec> specs = new ArrayList<>();
        for (ServerProcess server : servers) {
            for (int c = 0; c < CLIENTS / 2; c++) {
                specs.add(new ClientSpec(server.name(), server.port(), tag, false, 5));
            }
        }
        LoadRun load = LoadRun.start(specs);
        int setBacks = 0;
        while (setBacks < SET_BACKS) {
            FaultContext.holdFor(load, SET_BACK_EVERY_IDS);
            context.database.update("UPDATE leaf_alloc SET max_id = 1 WHERE biz_tag = ?", tag);
            setBacks++;
        }
        FaultContext.holdFor(load, SET_BACK_EVERY_IDS);
        LoadSummary run = load.stop();
        double moved = 0;
        for (ServerProcess server : servers) {
            moved += movedBack(server, "leaf_alloc");
            server.stop();
        }

        long[] all = FaultContext.ids(List.of(run), Mode.SEGMENT, spec -> true);
        long duplicates = IdChecks.duplicates(all).count();
        Map<String, Long> errors = run.errors();
        result.load = ScenarioResult.load(run);
        result.fault = "leaf_alloc.max_id set back to 1 every " + String.format(java.util.Locale.ROOT, "%,d", SET_BACK_EVERY_IDS) + " IDs under load (" + setBacks + " times), two servers, "
                + "step 1,000 (at most 2,000)";
        result.idsChecked = all.length;
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(errors);
        result.recovery = String.format(java.util.Locale.ROOT, "%.0f reservations moved past the mark", moved);
        result.note("Tag %s: %,d IDs; max_id now %,d. Per client, IDs strictly increasing: %s.", tag, all.length,
                context.database.maxId(tag), FaultContext.notIncreasing(run, Mode.SEGMENT).isEmpty() ? "yes"
                        : FaultContext.notIncreasing(run, Mode.SEGMENT));

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(moved).as("reservations that found the row set back").isPositive();
        assertThat(errors).as("errors").isEmpty();
    }

    /** A Redis-buffered server whose lists are put back to an older copy under load, as a lagging replica's. */
    static void laggingRedisList(FaultContext context, ScenarioResult result) throws Exception {
        context.database.insertApp(LAGGING_APP, "fault-lagging", 100, 0);
        LoadSummary run;
        int restored;
        long discarded;
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            ServerProcess server = shardServer(context, "lagging", "redis", redis.port(), null);
            server.start().awaitReady(Duration.ofSeconds(90));
            List<ClientSpec> specs = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                specs.add(ClientSpec.shard(server.name(), server.port(), LAGGING_APP, 5));
            }
            LoadRun load = LoadRun.start(specs);
            load.phase("before");
            FaultContext.holdFor(load, LOAD_IDS / 5);
            Map<String, List<String>> snapshot = lists(redis.port(), LAGGING_APP);
            FaultContext.holdFor(load, LOAD_IDS / 5);
            load.phase("lists put back");
            restored = restore(redis.port(), snapshot);
            FaultContext.holdFor(load, LOAD_IDS / 2);
            run = load.stop();
            discarded = server.logLines("the list went back in time");
            server.stop();
        }

        long[] all = FaultContext.ids(List.of(run), Mode.SHARD, spec -> true);
        long duplicates = IdChecks.duplicates(all).count();
        Map<String, Long> errors = run.errors();
        result.load = ScenarioResult.load(run);
        result.fault = "the app's " + restored + " Redis lists put back under load to a copy taken 5 s before (a "
                + "failover to a replica that lagged)";
        result.idsChecked = all.length;
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(errors);
        result.recovery = discarded + " lists discarded by the lagging-replica guard, refilled from id_alloc";
        result.note("IDs by phase: %,d before, %,d after the lists were put back.", run.ids("before", Mode.SHARD),
                run.ids("lists put back", Mode.SHARD));

        assertThat(duplicates).as("duplicate IDs").isZero();
        assertThat(restored).as("lists put back").isPositive();
        assertThat(discarded).as("lists the guard discarded").isPositive();
        assertThat(run.ids("lists put back", Mode.SHARD)).as("IDs after the lists were put back").isPositive();
        assertThat(errors).as("errors").isEmpty();
    }

    private static ServerProcess shardServer(FaultContext context, String name, String buffer, int redisPort,
            String key) {
        List<String> arguments = context.baseArguments(name, "--leaf.shard.enable=true",
                "--leaf.shard.buffer=" + buffer, "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + redisPort, "--leaf.shard.refresh-interval=1s");
        if (key != null) {
            arguments.add("--leaf.shard.opaque-key=" + key);
        }
        arguments.addAll(context.database.serverArguments(context.database.url()));
        return context.fleet.server(name, arguments, context.database.serverEnvironment());
    }

    /** {@code leaf_numbers_moved_back_total} of one table, scraped from the server. */
    private static double movedBack(ServerProcess server, String table) {
        RawHttp.Response scrape = RawHttp.send(server.port(), "GET", "/actuator/prometheus", List.of(), null);
        Matcher matcher = MOVED_BACK.matcher(scrape.body());
        while (matcher.find()) {
            if (matcher.group(1).equals(table)) {
                return Double.parseDouble(matcher.group(2));
            }
        }
        throw new AssertionError("no leaf_numbers_moved_back_total{table=\"" + table + "\"} in the scrape of "
                + server.name() + " (status " + scrape.status() + ")");
    }

    /** Every list of the app, head first. */
    private static Map<String, List<String>> lists(int port, int appId) throws IOException, InterruptedException {
        Map<String, List<String>> lists = new LinkedHashMap<>();
        for (String key : redisCli(port, "", "--scan", "--pattern", "id.gen.idList_" + appId + "_*")) {
            lists.put(key, redisCli(port, "", "LRANGE", key, "0", "-1"));
        }
        return lists;
    }

    /** Puts each list back as it was (what a promoted replica that lagged would serve); how many. */
    private static int restore(int port, Map<String, List<String>> lists) throws IOException, InterruptedException {
        StringBuilder commands = new StringBuilder();
        int restored = 0;
        for (Map.Entry<String, List<String>> list : lists.entrySet()) {
            if (list.getValue().isEmpty()) {
                continue;
            }
            commands.append("DEL ").append(list.getKey()).append('\n');
            commands.append("RPUSH ").append(list.getKey()).append(' ').append(String.join(" ", list.getValue()))
                    .append('\n');
            restored++;
        }
        redisCli(port, commands.toString());
        return restored;
    }

    /** Runs redis-cli with arguments, or with commands on its input; the lines it printed. */
    private static List<String> redisCli(int port, String input, String... arguments)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(Arrays.asList(arguments));
        Process cli = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream in = cli.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!cli.waitFor(10, TimeUnit.SECONDS) || cli.exitValue() != 0) {
            throw new IllegalStateException("redis-cli " + arguments.length + " arguments failed on port " + port
                    + ": " + out);
        }
        return out.lines().filter(line -> !line.isBlank()).toList();
    }
}
