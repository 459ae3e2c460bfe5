package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.leafid.client.LeafClient;
import org.leafid.testing.client.LeafAnswers;
import org.leafid.testing.client.SocketHttpServer;
import org.leafid.testing.client.SocketHttpServer.Responder;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * leaf-client with servers {@code [bad, good]}: {@code good} a real server process,
 * {@code bad} a socket server in the test answering 200 with what no Leaf server sends. Several
 * clients, each preferring the bad server at first, take segment, snowflake and shard IDs; every
 * ID is checked: none twice in its mode, none of the bad server's, each one the good server could
 * issue. One
 * good server serves the three scenarios (a start costs about 10 s).
 */
final class BadServerScenario implements AutoCloseable {

    static final int APP = 244;
    private static final int CLIENTS = 5;
    private static final int PER_MODE = 4_000;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
    /** Every ID the bad server makes up (other than 0 and another app's) is at least this. */
    private static final long BAD_FLOOR = 1L << 61;

    private final FaultDatabase database;
    private final String tag;
    private final ServerProcess good;

    BadServerScenario(FaultContext context) {
        this.database = ownDatabase(context);
        this.tag = "fault-" + context.runId + "-bad-server";
        database.update("DELETE FROM leaf_alloc WHERE biz_tag LIKE 'fault-%'"); // earlier runs' tags
        database.insertTag(tag, 1, 1000);
        database.insertApp(APP, "fault-bad-server", 1000, 0);
        List<String> arguments = context.baseArguments("bad-server", "--leaf.shard.enable=true");
        arguments.addAll(database.serverArguments(database.url()));
        this.good = context.fleet.server("bad-server-good", arguments, database.serverEnvironment());
    }

    /**
     * A database of the scenario's own ({@code <test database>_badserver}): a server reads every
     * shard app of its database at start, and other scenarios' apps (another opaque key, say) are
     * not this scenario's subject. The suite's database when the test user may not create one.
     */
    private static FaultDatabase ownDatabase(FaultContext context) {
        try {
            return FaultDatabase.on(TestDatabase.get().derived("badserver"));
        } catch (IllegalStateException e) {
            return context.database;
        }
    }

    /** The good server's process, for the suite to keep between the three scenarios. */
    ServerProcess goodProcess() {
        return good;
    }

    /** The good server, started on first use (and again if a scenario's end killed it). */
    private ServerProcess good() {
        if (!good.isAlive()) {
            good.start().awaitReady(Duration.ofSeconds(90));
        }
        return good;
    }

    /**
     * 200 with zeros, garbage, one ID repeated, another app's IDs decreasing, or one ID short, in
     * turn (each client meets one of them: after it the client prefers the good server). Each
     * kind fails a check in every mode; a single well-formed ID could not be told from a good one.
     */
    void garbage(ScenarioResult result) throws Exception {
        AtomicInteger turn = new AtomicInteger();
        List<Responder> kinds = List.of(LeafAnswers.zeros(), LeafAnswers.garbage(),
                LeafAnswers.each(i -> BAD_FLOOR + 7),
                LeafAnswers.ids(request -> otherAppDecreasing(request.count())),
                LeafAnswers.ids(request -> otherAppDecreasing(request.count() - 1)));
        run(result, (request, out) -> kinds.get(turn.getAndIncrement() % kinds.size()).respond(request, out),
                "200 answers of zeros, garbage, one ID repeated, app " + (APP + 1) + "'s IDs decreasing, "
                        + "one ID short (in turn)");
    }

    /** 200 with the length of the IDs asked for, then a byte a second. */
    void dripping(ScenarioResult result) throws Exception {
        run(result, LeafAnswers.drip(Duration.ofSeconds(1)), "200, then the body dripped at 1 byte/s");
    }

    /** 200 and a chunked body that never ends. */
    void endless(ScenarioResult result) throws Exception {
        run(result, LeafAnswers.endless(), "200 and an endless chunked body");
    }

    /**
     * A proxy in front of the good server that, per path, passes one request on and answers the next
     * with the answer it passed before: a server replaying IDs the client was already given (a
     * restored backup, a failover to a lagging replica, a broken cache). Every replayed answer is
     * one the client has handed out, so only its own checks stand between it and a repeat.
     */
    void replaying(ScenarioResult result) throws Exception {
        int port = good().port();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        Map<String, byte[]> lastAnswer = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> turns = new ConcurrentHashMap<>();
        Responder replaying = (request, out) -> {
            String key = request.path() + "?" + request.query();
            byte[] replay = lastAnswer.get(key);
            if (replay != null && turns.computeIfAbsent(key, k -> new AtomicInteger()).getAndIncrement() % 2 == 1) {
                out.write(replay);
                return;
            }
            HttpResponse<byte[]> passed = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + request.path() + query(request))).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            byte[] answer = passed.statusCode() == 200 ? LeafAnswers.lines(parse(passed.body())) : null;
            if (answer == null) {
                out.write(("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                return;
            }
            byte[] whole = withHeaders(answer);
            lastAnswer.put(key, whole);
            out.write(whole);
        };
        // What a client was not given it cannot know of: each client meets replays of its own answers only.
        Runnable forget = () -> {
            lastAnswer.clear();
            turns.clear();
        };
        run(result, replaying, "a proxy passing every other request on to the good server and answering the "
                + "rest with the answer it passed before to the same client (per path)", forget);
    }

    private static String query(SocketHttpServer.Request request) {
        StringBuilder query = new StringBuilder();
        request.query().forEach((name, value) -> query.append(query.isEmpty() ? '?' : '&').append(name).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return query.toString();
    }

    private static long[] parse(byte[] body) {
        return new String(body, StandardCharsets.US_ASCII).lines().filter(line -> !line.isBlank())
                .mapToLong(line -> Long.parseLong(line.strip())).toArray();
    }

    private static byte[] withHeaders(byte[] body) {
        byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain;charset=UTF-8\r\nContent-Length: " + body.length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] whole = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, whole, head.length, body.length);
        return whole;
    }

    private void run(ScenarioResult result, Responder answers, String fault) throws Exception {
        run(result, answers, fault, () -> { });
    }

    /** @param betweenClients run before each client: what the bad server forgets of the one before */
    private void run(ScenarioResult result, Responder answers, String fault, Runnable betweenClients)
            throws Exception {
        ServerProcess server = good();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LongList segment = new LongList();
        LongList snowflake = new LongList();
        LongList shard = new LongList();
        long slowestFirstMillis = 0;
        long started = System.nanoTime();
        try (SocketHttpServer bad = SocketHttpServer.start(answers)) {
            for (int c = 0; c < CLIENTS; c++) {
                betweenClients.run();
                // Segment batches capped as the others' (1000): sizes that stop growing repeat, and the replaying
                // proxy answers a request it has seen before, keyed by path and count.
                try (LeafClient leaf = LeafClient.builder().servers(bad.url(), "http://127.0.0.1:" + server.port())
                        .requestTimeout(REQUEST_TIMEOUT).maxWait(Duration.ofSeconds(10)).maxRangeBatch(1000)
                        .meterRegistry(registry).build()) {
                    long first = System.nanoTime();
                    segment.add(leaf.segment(tag).nextId());
                    slowestFirstMillis = Math.max(slowestFirstMillis, (System.nanoTime() - first) / 1_000_000);
                    segment.addAll(leaf.segment(tag).nextIds(PER_MODE - 1));
                    for (int i = 0; i < PER_MODE; i++) {
                        snowflake.add(leaf.snowflake().nextId());
                        shard.add(leaf.shard(APP).nextId("user-" + i % 97 + "@example.com"));
                    }
                }
            }
            result.load = String.format(Locale.ROOT, "%d clients one after another, each %,d segment, snowflake "
                    + "and shard IDs, servers [bad, good], request timeout %d ms", CLIENTS, PER_MODE,
                    REQUEST_TIMEOUT.toMillis());
            result.note("Requests the bad server got: %d", bad.requests());
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        long[] all = LongList.concat(List.of(segment, snowflake, shard));
        // Per mode: a segment tag and a shard app are number spaces of their own, and may share numbers.
        List<IdChecks.Duplicates> byMode = List.of(IdChecks.duplicates(segment.toArray()),
                IdChecks.duplicates(snowflake.toArray()), IdChecks.duplicates(shard.toArray()));
        long duplicates = byMode.stream().mapToLong(IdChecks.Duplicates::count).sum();
        long maxId = database.maxId(tag);
        long invalid = Arrays.stream(segment.toArray()).filter(id -> id <= 0 || id > maxId).count()
                + Arrays.stream(snowflake.toArray()).filter(id -> id <= 0 || id >= BAD_FLOOR).count()
                + Arrays.stream(shard.toArray()).filter(id -> id <= 0 || (id & 0xFF) != APP || id >= BAD_FLOOR).count();
        Map<String, Long> refused = refusedByCheck(registry);

        result.fault = fault;
        result.idsChecked = all.length;
        result.duplicates = duplicates;
        result.errors = "none reached the application; bad answers refused: " + refused;
        result.recovery = "first segment ID after at most " + ScenarioResult.millis(slowestFirstMillis)
                + " (the next server asked at once, or at the deadline)";
        result.note("%,d IDs in %s; IDs not the good server's (0, the bad server's, another app's, above max_id): %d",
                all.length, ScenarioResult.millis(millis), invalid);
        assertThat(duplicates).as("duplicates (segment, snowflake, shard): %s", byMode).isZero();
        assertThat(invalid).as("IDs the good server did not issue").isZero();
        assertThat(IdChecks.firstNotIncreasing(segment)).as("segment IDs increase").isEqualTo(-1);
        assertThat(refused).as("bad answers counted").isNotEmpty();
        assertThat(slowestFirstMillis).as("failover within the deadline")
                .isLessThan(REQUEST_TIMEOUT.toMillis() + 2_000);
    }

    @Override
    public void close() throws InterruptedException {
        good.kill();
    }

    private static Map<String, Long> refusedByCheck(SimpleMeterRegistry registry) {
        Map<String, Long> counts = new TreeMap<>();
        for (Counter counter : registry.find("leaf.client.bad.answers").counters()) {
            counts.merge(counter.getId().getTag("check"), (long) counter.count(), Long::sum);
        }
        return counts;
    }

    private static long[] otherAppDecreasing(int count) {
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = LeafAnswers.shardId(APP + 1, 0, (BAD_FLOOR >>> 14) + count - i);
        }
        return ids;
    }
}
