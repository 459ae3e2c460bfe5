package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.leafid.core.shard.ShardId;
import org.leafid.core.shard.ShardLimit;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.fault.RawHttp;
import org.leafid.server.support.Http;
import org.leafid.server.support.TestServerKeys;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Shard mode through the real server on a random port, on MariaDB (a database of this class's
 * own beside the test database, emptied of apps first): apps created with the admin API, IDs of
 * every kind of request, their decoding, the app list, every refusal, and an app spent to its
 * {@code max_limit_id} by 8 clients at once without a repeat.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(IdGetEndpointsContract.HandlerCount.class)
class ShardApiTest {

    private static final String TOKEN = "shard-admin-token-0123456789-abcdefghij";
    private static final TestDatabase DATABASE = TestDatabase.get().derived("shardapi");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    /** The requests that reached a Spring MVC handler ({@link IdGetEndpointsContract.HandlerCount}). */
    @Autowired
    AtomicInteger handled;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, "shard-api");
        registry.add("leaf.snowflake.port", () -> "18091");
        registry.add("leaf.shard.enable", () -> "true");
        registry.add("leaf.shard.refresh-interval", () -> "1h");
        registry.add("leaf.admin.token", () -> TOKEN);
    }

    @BeforeAll
    static void emptyTables() {
        DATABASE.forgetApps();
    }

    @AfterAll
    static void dropDatabase() {
        DATABASE.drop();
    }

    @Test
    void anAppCreatedByTheAdminApiIsServedAtOnceInEveryForm() throws Exception {
        HttpResponse<String> created = admin("{\"appId\":7,\"appName\":\"orders\",\"step\":50,\"maxLimitId\":\"4294967296\","
                + "\"description\":\"order ids\"}");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/api/shard/apps"));
        JsonNode app = JSON.readTree(created.body());
        assertThat(app.get("appId").asInt()).isEqualTo(7);
        assertThat(app.get("shards").asInt()).isEqualTo(64);
        assertThat(app.get("maxLimitId").asString()).isEqualTo("4294967296");
        assertThat(count("SELECT COUNT(*) FROM id_alloc WHERE app_id = 7 AND max_id = 0 AND step = 50")).isEqualTo(64);

        Http http = new Http(port);
        long roundRobin = http.getId("/api/shard/get/7");
        String gatePass = "alice@example.com";
        int aliceShard = Math.abs(gatePass.hashCode()) % 64;
        long alice = http.getId("/api/shard/get/7?gatePass=alice%40example.com");
        HttpResponse<String> text = http.get("/api/shard/get/7?gatePass=alice%40example.com&count=5");
        HttpResponse<String> json = http.send("GET", "/api/shard/get/7?count=4", "Accept", "application/json");

        assertThat(text.statusCode()).isEqualTo(200);
        assertThat(text.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        long[] batch = text.body().lines().mapToLong(Long::parseLong).toArray();
        assertThat(json.statusCode()).isEqualTo(200);
        JsonNode array = JSON.readTree(json.body());
        assertThat(array.isArray()).isTrue();
        assertThat(array.get(0).isString()).as("IDs as strings, as the other modes answer").isTrue();
        List<Long> all = new ArrayList<>(List.of(roundRobin, alice));
        Arrays.stream(batch).forEach(all::add);
        array.forEach(id -> all.add(Long.parseLong(id.asString())));
        assertThat(new HashSet<>(all)).hasSize(2 + 5 + 4);
        for (long id : all) {
            ShardId parts = ShardId.decode(id);
            assertThat(parts.appId()).isEqualTo(7);
            assertThat(id).isLessThan(4_294_967_296L);
            JsonNode decoded = JSON.readTree(http.get("/api/shard/decode/" + id).body());
            assertThat(decoded.get("id").asString()).isEqualTo(Long.toString(id));
            assertThat(decoded.get("appId").asInt()).isEqualTo(7);
            assertThat(decoded.get("shardId").asInt()).isEqualTo(parts.shardId());
            assertThat(decoded.get("index").asLong()).isEqualTo(parts.index());
        }
        // The gate pass's shard, their formula; its indexes go on from one request to the next.
        assertThat(ShardId.decode(alice).shardId()).isEqualTo(aliceShard);
        assertThat(Arrays.stream(batch).map(id -> ShardId.decode(id).shardId()).distinct().toArray())
                .containsExactly(aliceShard);
        assertThat(ShardId.decode(batch[0]).index()).isEqualTo(ShardId.decode(alice).index() + 1);
        // Their block rule: the first block of a row at max_id 0 starts at index 1.
        assertThat(ShardId.decode(alice).index()).isEqualTo(1);

        JsonNode listed = findApp(JSON.readTree(http.get("/api/shard/apps").body()), 7);
        assertThat(listed.get("appName").asString()).isEqualTo("orders");
        assertThat(listed.get("shards").asInt()).isEqualTo(64);
        assertThat(listed.get("step").asInt()).isEqualTo(50);
        assertThat(listed.get("maxLimitId").asString()).isEqualTo("4294967296");
        assertThat(listed.get("buffer").asString()).isEqualTo("memory");
        assertThat(listed.get("opaque").asBoolean()).isFalse();
        assertThat(listed.get("headroom").asDouble()).isBetween(0.0, 1.0);
    }

    @Test
    void ordinaryShardGetsAndTheirRefusalsAreServedByTheFastPath() {
        assertThat(admin("{\"appId\":11,\"appName\":\"fast\"}").statusCode()).isEqualTo(201);
        Http http = new Http(port);
        int before = handled.get();

        long single = http.getId("/api/shard/get/11");
        HttpResponse<String> batch = http.get("/api/shard/get/11?gatePass=bob&count=3");
        HttpResponse<String> badApp = http.get("/api/shard/get/256");
        HttpResponse<String> unknownApp = http.get("/api/shard/get/12");

        assertThat(ShardId.decode(single).appId()).isEqualTo(11);
        assertThat(batch.statusCode()).isEqualTo(200);
        assertThat(batch.body().lines().count()).isEqualTo(3);
        assertThat(badApp.statusCode()).isEqualTo(400);
        assertProblem(badApp, "invalid-app-id");
        assertThat(unknownApp.statusCode()).isEqualTo(404);
        assertProblem(unknownApp, "unknown-app");
        assertThat(handled.get()).as("requests a Spring MVC handler saw").isEqualTo(before);

        // Left to Spring MVC, with the same answer: HEAD, an escaped app id.
        assertThat(http.send("HEAD", "/api/shard/get/11").statusCode()).isEqualTo(200);
        HttpResponse<String> escaped = http.get("/api/shard/get/1%31");
        assertThat(escaped.statusCode()).isEqualTo(200);
        assertThat(ShardId.decode(Long.parseLong(escaped.body().strip())).appId()).isEqualTo(11);
        assertThat(handled.get()).isEqualTo(before + 2);
    }

    @Test
    void badRequestsAreRefusedWithTheirProblemTypeAndIssueNothing() throws Exception {
        assertThat(admin("{\"appId\":8,\"appName\":\"refusals\"}").statusCode()).isEqualTo(201);
        long reservedBefore = count("SELECT COALESCE(SUM(max_id), 0) FROM id_alloc WHERE app_id = 8");
        Http http = new Http(port);
        String longGatePass = "g".repeat(ShardId.MAX_GATE_PASS_LENGTH + 1);
        String[][] cases = {
            {"/api/shard/get/abc", "400", "invalid-app-id"},
            {"/api/shard/get/256", "400", "invalid-app-id"},
            {"/api/shard/get/-1", "400", "invalid-app-id"},
            {"/api/shard/get/08", "400", "invalid-app-id"},
            {"/api/shard/get/8?gatePass=" + longGatePass, "400", "invalid-gate-pass"},
            {"/api/shard/get/8?gatePass=", "400", "invalid-gate-pass"},
            {"/api/shard/get/8?gatePass=a&gatePass=b", "400", "invalid-gate-pass"},
            {"/api/shard/get/8?count=0", "400", "invalid-count"},
            {"/api/shard/get/8?count=1000000", "400", "invalid-count"},
            {"/api/shard/get/9", "404", "unknown-app"},
            {"/api/shard/decode/x1", "400", "invalid-id"},
            {"/api/shard/decode/-5", "400", "invalid-id"},
            {"/api/shard/decode/7", "400", "invalid-id"},
            {"/api/shard/decode/0", "400", "invalid-id"},
            {"/api/shard/get/8?gatePass=%ff%fe", "400", "bad-request"},
            {"/api/shard/nothing-here", "404", "not-found"},
        };
        for (String[] c : cases) {
            HttpResponse<String> response = http.get(c[0]);
            assertThat(response.statusCode()).as(c[0]).isEqualTo(Integer.parseInt(c[1]));
            assertProblem(response, c[2]);
        }
        // Bad escapes java.net.http will not send.
        RawHttp.Response badCount = RawHttp.send(port, "GET", "/api/shard/get/8?gatePass=a&count=%zz", List.of(), null);
        assertThat(badCount.status()).isEqualTo(400);
        assertThat(badCount.problemType()).isEqualTo("urn:leaf:problem:bad-request");
        // A gate pass of exactly 256 characters is a gate pass.
        assertThat(http.get("/api/shard/get/8?gatePass=" + "g".repeat(ShardId.MAX_GATE_PASS_LENGTH)).statusCode())
                .isEqualTo(200);
        assertThat(count("SELECT COALESCE(SUM(max_id), 0) FROM id_alloc WHERE app_id = 8"))
                .as("only the one good request reserved a block").isEqualTo(reservedBefore + 1000);

        String[][] bodies = {
            {"{\"appId\":256,\"appName\":\"x\"}", "appId"},
            {"{\"appId\":-1,\"appName\":\"x\"}", "appId"},
            {"{\"appName\":\"x\"}", "appId"},
            {"{\"appId\":20,\"appName\":\" \"}", "appName"},
            {"{\"appId\":20,\"appName\":\"x\",\"step\":0}", "step"},
            {"{\"appId\":20,\"appName\":\"x\",\"step\":1.5}", "step"},
            {"{\"appId\":20,\"appName\":\"x\",\"maxLimitId\":100}", "maxLimitId"},
            {"{\"appId\":20,\"appName\":\"x\",\"maxLimitId\":-1}", "maxLimitId"},
            {"{\"appId\":20,\"appName\":\"x\",\"shard\":3}", "shard"},
            {"{\"appId\":20,\"appName\":\"a\\u0000b\"}", "appName"},
            {"{\"appId\":20,\"appName\":\"line\\nbreak\"}", "appName"},
            {"{\"appId\":20,\"appName\":\"bell\\u0007\"}", "appName"},
            {"{\"appId\":20,\"appName\":\"x\",\"description\":\"a\\u001b[31mred\"}", "description"},
        };
        for (String[] body : bodies) {
            HttpResponse<String> response = admin(body[0]);
            assertThat(response.statusCode()).as(body[0]).isEqualTo(400);
            assertProblem(response, "invalid-request");
            assertThat(JSON.readTree(response.body()).get("field").asString()).isEqualTo(body[1]);
        }
        assertThat(count("SELECT COUNT(*) FROM id_alloc WHERE app_id = 20")).isZero();
        // A field given twice is refused, not read as its last value.
        HttpResponse<String> duplicate = admin("{\"appId\":22,\"appId\":23,\"appName\":\"x\"}");
        assertThat(duplicate.statusCode()).isEqualTo(400);
        assertProblem(duplicate, "invalid-request");
        assertThat(duplicate.body()).contains("appId");
        assertThat(count("SELECT COUNT(*) FROM id_alloc WHERE app_id IN (22, 23)")).isZero();
        HttpResponse<String> again = admin("{\"appId\":8,\"appName\":\"twice\"}");
        assertThat(again.statusCode()).isEqualTo(409);
        assertProblem(again, "app-exists");
        assertThat(count("SELECT COUNT(*) FROM id_alloc WHERE app_id = 8 AND app_name = 'refusals'")).isEqualTo(64);
        HttpResponse<String> noToken = send("POST", "/api/admin/apps", null, "{\"appId\":21,\"appName\":\"x\"}");
        assertThat(noToken.statusCode()).isEqualTo(401);
        assertThat(count("SELECT COUNT(*) FROM id_alloc WHERE app_id = 21")).isZero();
    }

    @Test
    void anAppCreatedElsewhereIsServedAtItsFirstGetAndTheAdminRefreshListsApps() throws Exception {
        // Inserted as another server (or an operator) would: this server reads apps once an hour here.
        for (int shard = 0; shard < 64; shard++) {
            DATABASE.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, max_limit_id) "
                    + "VALUES (33, 'elsewhere', 0, ?, 100, 0)", shard);
        }
        Http http = new Http(port);

        assertThat(ShardId.decode(http.getId("/api/shard/get/33")).appId()).isEqualTo(33);
        HttpResponse<String> unknown = http.get("/api/shard/get/34");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertProblem(unknown, "unknown-app");

        for (int shard = 0; shard < 64; shard++) {
            DATABASE.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, max_limit_id) "
                    + "VALUES (34, 'refreshed', 0, ?, 100, 0)", shard);
        }
        HttpResponse<String> refresh = send("POST", "/api/admin/refresh", TOKEN, null);
        assertThat(refresh.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(refresh.body()).get("apps").toString()).contains("33", "34");
        assertThat(refresh.body()).contains("\"refusedApps\":{}");
    }

    @Test
    void decodeWithAWrongTokenIs403AndAnsweredWithoutOrWithTheRightOne() {
        String path = "/api/shard/decode/" + ShardId.compose(1, 0, 1);
        for (String wrong : List.of(TOKEN + "x", "x", TOKEN.toUpperCase())) {
            HttpResponse<String> refused = send("GET", path, wrong, null);
            assertThat(refused.statusCode()).as(wrong).isEqualTo(403);
            assertProblem(refused, "forbidden");
            assertThat(refused.body()).doesNotContain(TOKEN);
        }
        assertThat(send("GET", path, null, null).statusCode()).isEqualTo(200);
        assertThat(send("GET", path, TOKEN, null).statusCode()).isEqualTo(200);
    }

    @Test
    void aShardWithoutItsRowIsAnUnknownShardAndRoundRobinSkipsNothing() throws Exception {
        // App 30 as an operator might leave it: rows for shards 0..62 only.
        for (int shard = 0; shard < 63; shard++) {
            DATABASE.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, max_limit_id) "
                    + "VALUES (30, 'partial', 0, ?, 100, 0)", shard);
        }
        // Creating another app re-reads the app list, so app 30 is known without waiting for the hour.
        assertThat(admin("{\"appId\":31,\"appName\":\"trigger\"}").statusCode()).isEqualTo(201);
        String toShard63 = gatePassOfShard(63);
        Http http = new Http(port);

        HttpResponse<String> missing = http.get("/api/shard/get/30?gatePass=" + toShard63);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertProblem(missing, "unknown-shard");
        Set<Integer> shards = new HashSet<>();
        for (int i = 0; i < 63 * 2; i++) {
            shards.add(ShardId.decode(http.getId("/api/shard/get/30")).shardId());
        }
        assertThat(shards).hasSize(63).doesNotContain(63);
    }

    @Test
    void eightClientsSpendALimitedAppWithoutARepeatAndThenGet503() throws Exception {
        int appId = 40;
        long maxLimitId = 3L << ShardId.INDEX_SHIFT; // indexes 1..2 in every shard below it
        assertThat(admin("{\"appId\":" + appId + ",\"appName\":\"tiny\",\"step\":1,\"maxLimitId\":" + maxLimitId + "}")
                .statusCode()).isEqualTo(201);
        ShardLimit limit = new ShardLimit(appId, maxLimitId);
        long capacity = 0;
        for (int shard = 0; shard < ShardId.SHARDS; shard++) {
            capacity += limit.maxIndex(shard);
        }
        ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> refusals = new ConcurrentLinkedQueue<>();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                int client = c;
                done.add(clients.submit(() -> {
                    Http http = new Http(port);
                    for (int i = 0; i < 60; i++) {
                        String path = "/api/shard/get/" + appId + (i % 2 == 0 ? "" : "?gatePass=user-" + client + "-" + i);
                        HttpResponse<String> response = http.get(path);
                        if (response.statusCode() == 200) {
                            ids.add(Long.parseLong(response.body().trim()));
                        } else {
                            refusals.add(response.statusCode() + " " + problemType(response));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
        assertThat(new HashSet<>(ids)).as("no repeat").hasSize(ids.size());
        assertThat(ids).allSatisfy(id -> assertThat(id).isLessThan(maxLimitId));
        assertThat((long) ids.size()).isLessThanOrEqualTo(capacity).isPositive();
        assertThat(refusals).isNotEmpty().allSatisfy(r -> assertThat(r).isEqualTo("503 app-limit-reached"));
        // Spent for good: round-robin finds no shard with room.
        HttpResponse<String> after = new Http(port).get("/api/shard/get/" + appId);
        assertThat(after.statusCode()).isEqualTo(503);
        assertProblem(after, "app-limit-reached");
        assertThat(after.body()).contains("max_limit_id " + maxLimitId).contains("new app id");
    }

    /** A gate pass whose shard, by their formula, is {@code shard}. */
    private static String gatePassOfShard(int shard) {
        for (int i = 0; ; i++) {
            String candidate = "user" + i;
            if (Math.abs(candidate.hashCode()) % 64 == shard) {
                return candidate;
            }
        }
    }

    private HttpResponse<String> admin(String body) {
        return send("POST", "/api/admin/apps", TOKEN, body);
    }

    private HttpResponse<String> send(String method, String path, String token, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(15))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void assertProblem(HttpResponse<String> response, String type) {
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(problemType(response)).as(response.body()).isEqualTo(type);
    }

    private static String problemType(HttpResponse<String> response) {
        JsonNode type = JSON.readTree(response.body()).get("type");
        return type == null ? "none" : type.asString().replace("urn:leaf:problem:", "");
    }

    private static JsonNode findApp(JsonNode apps, int appId) {
        for (JsonNode app : apps) {
            if (app.get("appId").asInt() == appId) {
                return app;
            }
        }
        throw new AssertionError("app " + appId + " not in " + apps);
    }

    private static long count(String sql) {
        return DATABASE.number(sql);
    }
}
