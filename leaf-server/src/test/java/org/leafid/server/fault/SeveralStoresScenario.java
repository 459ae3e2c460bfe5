package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;
import org.leafid.testing.TcpProxy;
import org.leafid.testing.jdbc.MariadbServer;
import org.leafid.testing.jdbc.PostgresServer;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * Segment IDs from several independent stores (issue 45), black-box: two MariaDB servers and a
 * PostgreSQL server of the suite's own (a third database on the second MariaDB joins later), three
 * Leaf servers under load, the first store reached through a TCP proxy, the fleet's witness in
 * Redis. Each stage is a scenario of its own, on the same stores and servers: two stores killed in
 * turn and started again, one stalled with SIGSTOP, one cut off, one added and one retired by the
 * admin API, one restored from a dump taken 250,000 IDs earlier. (A server with the stores reordered is
 * refused at start: SeveralStoresServerTest proves that in the JVM, without a process.) Every ID of every stage is collected; none may repeat, within a stage or across them.
 */
final class SeveralStoresScenario implements AutoCloseable {

    /** The IDs each stage collects at least. */
    static final long IDS_WANTED = 200_000;
    private static final int CLIENTS_PER_SERVER = 3;
    /** How often a renumbering answered 503 is asked again. */
    private static final int RENUMBER_ATTEMPTS = 5;
    private static final int STEP = 1000;
    private static final long STRIPE_WIDTH = 100_000;
    private static final String TOKEN = "several-stores-admin-token-" + "0123456789abcdefghij";
    private static final Duration STALL = Duration.ofSeconds(20);

    private final FaultContext context;
    private final MariadbServer first;
    private final MariadbServer second;
    private final PostgresServer third;
    private final TcpProxy proxy;
    private final List<TestDatabase> stores;
    private final List<ServerProcess> servers = new ArrayList<>();
    private final String tag;
    /** Every ID of every stage so far, for the check across stages. */
    private final List<long[]> issued = new ArrayList<>();

    private SeveralStoresScenario(FaultContext context, Path dir) throws Exception {
        this.context = context;
        this.first = MariadbServer.primary(dir.resolve("a"));
        this.second = MariadbServer.primary(dir.resolve("b"));
        this.third = PostgresServer.start();
        this.proxy = new TcpProxy("127.0.0.1", first.port());
        second.execute("CREATE DATABASE leaf_joining");
        second.execute("GRANT ALL ON leaf_joining.* TO '" + MariadbServer.USER + "'@'%'");
        this.stores = List.of(
                TestDatabase.prepare(first.url(), MariadbServer.USER, MariadbServer.PASSWORD),
                TestDatabase.prepare(second.url(), MariadbServer.USER, MariadbServer.PASSWORD),
                TestDatabase.prepare(third.url("leaf"), "postgres", ""),
                TestDatabase.prepare(second.url().replace("/" + MariadbServer.DATABASE, "/leaf_joining"),
                        MariadbServer.USER, MariadbServer.PASSWORD));
        this.tag = "fault-" + context.runId + "-stores";
        for (int k = 0; k < 3; k++) {
            stores.get(k).insertTag(tag, 1, STEP);
        }
    }

    /** The stores, and three servers on them, ready. */
    static SeveralStoresScenario start(FaultContext context) throws Exception {
        Path dir = Files.createTempDirectory("leaf-several-stores");
        // mariadbd runs as mysql: it must reach its directories below this one.
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        SeveralStoresScenario scenario = new SeveralStoresScenario(context, dir);
        for (String name : List.of("stores-1", "stores-2", "stores-3")) {
            scenario.servers.add(context.fleet.server(name, scenario.arguments(name), java.util.Map.of()));
        }
        Fleet.startAll(scenario.servers, Duration.ofSeconds(120));
        // A server loads its first block at the first request, 2-3 s on this machine for three cold JVMs at
        // once (the fleet's and the store's first checks, the witness's first connection): the stages
        // measure the stores' faults, so each server has its first block before the load begins.
        for (ServerProcess server : scenario.servers) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> server.status("/api/segment/get/" + scenario.tag) == 200);
        }
        return scenario;
    }

    /** The servers the suite must not kill between the stages. */
    List<ServerProcess> servers() {
        return servers;
    }

    private List<String> arguments(String name) {
        List<String> arguments = context.baseArguments("stores-" + name, "--leaf.snowflake.enable=false",
                "--leaf.segment.max-step=" + STEP, "--leaf.jdbc.stripe-width=" + STRIPE_WIDTH,
                "--leaf.jdbc.connect-timeout=1s", "--leaf.jdbc.query-timeout=3s",
                "--leaf.witness.fleet=redis", "--leaf.witness.namespace=fault-" + context.runId + "-stores",
                "--leaf.admin.token=" + TOKEN);
        List<String> urls = new ArrayList<>(List.of(stores.get(0).urlThrough(proxy), stores.get(1).url(),
                stores.get(2).url(), stores.get(3).url()));
        for (int k = 0; k < 4; k++) {
            TestDatabase store = stores.get(k);
            arguments.add("--leaf.jdbc.stores[" + k + "].url=" + urls.get(k));
            arguments.add("--leaf.jdbc.stores[" + k + "].username=" + store.user());
            arguments.add("--leaf.jdbc.stores[" + k + "].password=" + store.password());
        }
        arguments.add("--leaf.jdbc.stores[3].state=joining");
        return arguments;
    }

    /** Store 0 killed (kill -9), then store 1, leaving the PostgreSQL one; then both started again. */
    void killTwo(ScenarioResult result) throws Exception {
        stage(result, "store 0 (MariaDB) killed with kill -9, then store 1 (MariaDB), leaving the PostgreSQL store"
                + " alone; both started again (crash recovery)", load -> {
                    load.phase("store-0-killed");
                    first.kill();
                    FaultContext.holdFor(load, IDS_WANTED / 4);
                    load.phase("stores-0-1-killed");
                    second.kill();
                    FaultContext.holdFor(load, IDS_WANTED / 4);
                    load.phase("back");
                    first.startAgain();
                    second.startAgain();
                    awaitStoreUp(0);
                    awaitStoreUp(1);
                });
    }

    /** Store 0, the one every server prefers, stopped with SIGSTOP for 20 s. */
    void stall(ScenarioResult result) throws Exception {
        stage(result, "store 0 (MariaDB, the preferred one) stopped with SIGSTOP for " + STALL.toSeconds() + " s,"
                + " then SIGCONT", load -> {
                    load.phase("stalled");
                    first.pause();
                    try {
                        FaultContext.hold(STALL);
                    } finally {
                        first.resume();
                    }
                    load.phase("resumed");
                    awaitStoreUp(0);
                });
    }

    /** Store 0 cut off by the TCP proxy: connections dropped, new ones refused, for 8 s. */
    void cutOff(ScenarioResult result) throws Exception {
        stage(result, "store 0 cut off by the TCP proxy (open connections dropped, new ones refused) for 8 s",
                load -> {
                    load.phase("cut");
                    proxy.cut();
                    try {
                        FaultContext.hold(Duration.ofSeconds(8));
                    } finally {
                        proxy.restore();
                    }
                    load.phase("restored");
                    awaitStoreUp(0);
                });
    }

    /** The fourth store, listed as joining, made a member by one server's renumbering. */
    void add(ScenarioResult result) throws Exception {
        stage(result, "a fourth store (a database on the second MariaDB, listed state=joining) added with POST"
                + " /api/admin/stores/renumber on one server", load -> {
                    load.phase("added");
                    String answer = renumber(result, "{}");
                    result.note("Renumbering answered %s.", answer);
                    assertThat(answer).contains("\"members\":[0,1,2,3]");
                });
    }

    /** Store 1 retired by one server's renumbering. */
    void retire(ScenarioResult result) throws Exception {
        stage(result, "store 1 retired with POST /api/admin/stores/renumber {\"retire\":[1]} on one server",
                load -> {
                    load.phase("retired");
                    String answer = renumber(result, "{\"retire\":[1]}");
                    result.note("Renumbering answered %s.", answer);
                    assertThat(answer).contains("\"members\":[0,2,3]");
                });
    }

    /**
     * Store 0's {@code leaf_alloc} and {@code leaf_high_water} as they were {@link #IDS_WANTED} IDs and
     * more earlier (what a dump loaded back writes), under load: the fleet's witness carries every
     * server past what was served. The dump is behind by a count of IDs, not a time, and by blocks
     * store 0 reserved since: a store found up again is asked after the others for its first 10 s
     * (the cut of the stage before), so the load goes on until store 0 has given a block past the
     * dump, or fails after {@link FaultContext#HOLD_BOUND}.
     */
    void restore(ScenarioResult result) throws Exception {
        List<Object[]> allocDump = dump(stores.get(0), "SELECT biz_tag, max_id FROM leaf_alloc");
        List<Object[]> markDump = dump(stores.get(0), "SELECT name, high FROM leaf_high_water");
        long dumpedMaxId = allocDump.stream().filter(row -> tag.equals(row[0])).mapToLong(row -> (Long) row[1])
                .findFirst().orElseThrow();
        stage(result, "store 0's leaf_alloc and leaf_high_water loaded back from a dump taken "
                + String.format(java.util.Locale.ROOT, "%,d", IDS_WANTED + IDS_WANTED / 4) + " IDs earlier, under"
                + " load, the fleet's witness in Redis", load -> {
                    FaultContext.holdFor(load, IDS_WANTED);
                    await().atMost(FaultContext.HOLD_BOUND).pollInterval(Duration.ofMillis(100))
                            .until(() -> storeZeroMaxId() > dumpedMaxId);
                    long maxIdNow = storeZeroMaxId();
                    result.note("Store 0's max_id of the tag: %,d in the dump, %,d when it was loaded back.",
                            dumpedMaxId, maxIdNow);
                    load.phase("restored");
                    load(stores.get(0), "UPDATE leaf_alloc SET max_id = ? WHERE biz_tag = ?", allocDump);
                    load(stores.get(0), "UPDATE leaf_high_water SET high = ? WHERE name = ?", markDump);
                });
    }

    private long storeZeroMaxId() throws Exception {
        return dump(stores.get(0), "SELECT biz_tag, max_id FROM leaf_alloc").stream()
                .filter(row -> tag.equals(row[0])).mapToLong(row -> (Long) row[1]).findFirst().orElseThrow();
    }

    @FunctionalInterface
    private interface Fault {
        void apply(LoadRun load) throws Exception;
    }

    /**
     * Load on the three servers, {@link #IDS_WANTED} / 4 IDs before the fault, the fault, then load until
     * {@link #IDS_WANTED} IDs in all; every ID checked against every stage's.
     */
    private void stage(ScenarioResult result, String fault, Fault body) throws Exception {
        List<ClientSpec> specs = new ArrayList<>();
        for (ServerProcess server : servers) {
            for (int c = 0; c < CLIENTS_PER_SERVER; c++) {
                specs.add(new ClientSpec(server.name(), server.port(), tag, false, 1));
            }
        }
        LoadRun load = LoadRun.start(specs);
        load.recordLatencies();
        FaultContext.holdFor(load, IDS_WANTED / 4);
        body.apply(load);
        load.phase("after");
        long after = load.idsSoFar();
        FaultContext.holdFor(load, Math.max(IDS_WANTED / 4, IDS_WANTED - after));
        double p99 = load.p99Millis();
        LoadSummary run = load.stop();

        long[] ids = FaultContext.ids(List.of(run), Mode.SEGMENT, spec -> true);
        issued.add(ids);
        long duplicates = IdChecks.duplicates(issued.stream().flatMapToLong(java.util.Arrays::stream).toArray()).count();
        List<String> notIncreasing = FaultContext.notIncreasing(run, Mode.SEGMENT);
        long refused = run.errors().entrySet().stream().filter(e -> e.getKey().contains("503"))
                .mapToLong(java.util.Map.Entry::getValue).sum();
        result.load = ScenarioResult.load(run);
        result.fault = fault;
        result.idsChecked = ids.length;
        result.duplicates = duplicates;
        result.errors = ScenarioResult.errors(run.errors());
        result.recovery = String.format(java.util.Locale.ROOT, "%,d × 503; p99 %.1f ms; IDs after the fault %,d",
                refused, p99, run.ids("after", Mode.SEGMENT));
        result.note("Errors by phase: %s.", run.errors().isEmpty() ? "none" : String.join("; ",
                phases(load).stream().filter(phase -> !run.errors(phase).isEmpty())
                        .map(phase -> phase + " " + ScenarioResult.errors(run.errors(phase))).toList()));
        result.note("Three servers, %d clients each, every request a batch of 10; stores: MariaDB (through a TCP"
                + " proxy), MariaDB, PostgreSQL (and a joining MariaDB database); stripes of %,d. IDs per client"
                + " strictly increasing: %s. Checked against every stage before: %,d IDs in all.", CLIENTS_PER_SERVER,
                STRIPE_WIDTH, notIncreasing.isEmpty() ? "yes" : notIncreasing,
                issued.stream().mapToLong(a -> a.length).sum());

        assertThat(duplicates).as("duplicate IDs, this stage and every one before").isZero();
        assertThat(notIncreasing).as("clients whose IDs did not increase").isEmpty();
        assertThat((long) ids.length).as("IDs of the stage").isGreaterThanOrEqualTo(IDS_WANTED);
        assertThat(FaultContext.unexpected(run.errors(), "segment 503 *")).as("errors other than 503").isEmpty();
    }

    /** The phases a stage may have. */
    private static List<String> phases(LoadRun load) {
        return List.of("load", "store-0-killed", "stores-0-1-killed", "back", "stalled", "resumed", "cut", "restored",
                "added", "retired", "after");
    }

    /** Until every server's status page shows store {@code k} up again. */
    private void awaitStoreUp(int k) {
        for (ServerProcess server : servers) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> metric(server).contains("leaf_store_up{store=\"stores[" + k + "]\"} 1.0"));
        }
    }

    private static String metric(ServerProcess server) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + server.port() + "/actuator/prometheus")).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception unreachable) {
            return "";
        }
    }

    /**
     * One server's renumbering, asked again after a 503 as an operator would: a store restarted by an
     * earlier stage may have left a dead connection in the pool of a store no block was asked of (the
     * joining one), which the check finds first and answers "retry shortly".
     */
    private String renumber(ScenarioResult result, String body) throws Exception {
        HttpResponse<String> answer = null;
        for (int attempt = 1; attempt <= RENUMBER_ATTEMPTS; attempt++) {
            answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + servers.get(0).port() + "/api/admin/stores/renumber"))
                    .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + TOKEN)
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 503) {
                break;
            }
            result.note("Renumbering attempt %d answered 503: %s", attempt, answer.body());
            Thread.sleep(1_000);
        }
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return answer.body();
    }

    private static List<Object[]> dump(TestDatabase database, String select) throws Exception {
        List<Object[]> rows = new ArrayList<>();
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(select)) {
            while (result.next()) {
                rows.add(new Object[] {result.getString(1), result.getLong(2)});
            }
        }
        return rows;
    }

    /** Writes the dumped values back, as loading the dump would: {@code update} takes (value, key). */
    private static void load(TestDatabase database, String update, List<Object[]> rows) throws Exception {
        try (Connection connection = database.connect(); PreparedStatement statement = connection.prepareStatement(update)) {
            for (Object[] row : rows) {
                statement.setLong(1, (Long) row[1]);
                statement.setString(2, (String) row[0]);
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    @Override
    public void close() throws Exception {
        for (ServerProcess server : servers) {
            server.kill();
        }
        proxy.close();
        third.close();
        second.close();
        first.close();
    }
}
