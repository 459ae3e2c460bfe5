package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.fault.FullFaultSuite;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two shard-mode servers on one MariaDB database, where their features and an operator's habits
 * meet: one with an opaque key and one without (each app is served by the servers of its recorded
 * mode only, decided once and followed at every read of the app list), and an app deleted and
 * created again while it is served. Every ID handed out is collected; none may repeat.
 */
class ShardFleetEdgesTest {

    private static final String KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    private static final String TOKEN = "fleet-admin-token-0123456789-abcdefghij";
    private static final TestDatabase DATABASE = TestDatabase.get().derived("shardfleet");

    @TempDir
    Path dataDir;

    @BeforeAll
    static void emptyTables() {
        DATABASE.forgetApps();
    }

    @AfterAll
    static void dropDatabase() {
        DATABASE.drop();
    }

    @Test
    void serversWithAndWithoutAKeyNeverBothServeAnApp() throws Exception {
        try (ConfigurableApplicationContext plain = start(null, "plain");
                ConfigurableApplicationContext opaque = start(KEY, "opaque")) {
            Http a = new Http(port(plain));
            Http b = new Http(port(opaque));
            // Created through the server without a key, which records the app plain; the keyed server,
            // already running, learns it at the first get (or its next refresh) and refuses it.
            assertThat(createApp(port(plain), 40).statusCode()).isEqualTo(201);
            // Created through the keyed server: opaque, refused by the plain one.
            assertThat(createApp(port(opaque), 41).statusCode()).isEqualTo(201);

            Map<Long, String> issued = new ConcurrentHashMap<>();
            List<String> duplicates = java.util.Collections.synchronizedList(new ArrayList<>());
            Map<String, Integer> refusals = new ConcurrentHashMap<>();
            ExecutorService clients = Executors.newFixedThreadPool(4);
            List<Future<?>> done = new ArrayList<>();
            for (Http server : List.of(a, b, a, b)) {
                String name = server == a ? "plain" : "opaque";
                done.add(clients.submit(() -> {
                    for (int i = 0; i < 480; i++) {
                        for (int app : new int[] {40, 41}) {
                            HttpResponse<String> answer = server.get("/api/shard/get/" + app);
                            if (answer.statusCode() == 200) {
                                long id = Long.parseLong(answer.body().trim());
                                if (issued.putIfAbsent(id, name + " app " + app) != null) {
                                    duplicates.add(id + " by " + name + " and " + issued.get(id));
                                }
                            } else {
                                assertThat(answer.statusCode()).isEqualTo(503);
                                assertThat(answer.body()).contains("app-mode-conflict");
                                refusals.merge(name + " app " + app, 1, Integer::sum);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> client : done) {
                client.get(120, TimeUnit.SECONDS);
            }
            clients.shutdown();

            assertThat(duplicates).isEmpty();
            assertThat(issued).hasSize(2 * 2 * 480);
            assertThat(refusals).containsExactlyInAnyOrderEntriesOf(Map.of("opaque app 40", 960, "plain app 41", 960));
            assertThat(b.get("/actuator/health/readiness").body()).contains("\"40\"").contains("issues plain IDs");
            assertThat(a.get("/actuator/health/readiness").body()).contains("\"41\"").contains("IDs are opaque");
        }
    }

    @FullFaultSuite
    @Test
    void anAppDeletedAndCreatedAgainUnderLoadIssuesNoIdTwice() throws Exception {
        int app = 55;
        try (ConfigurableApplicationContext first = start(null, "first");
                ConfigurableApplicationContext second = start(null, "second")) {
            assertThat(createApp(port(first), app).statusCode()).isEqualTo(201);
            DATABASE.update("UPDATE id_alloc SET step = 10 WHERE app_id = ?", app);
            Set<Long> issued = ConcurrentHashMap.newKeySet();
            List<Long> duplicates = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService clients = Executors.newFixedThreadPool(4);
            List<Future<Integer>> done = new ArrayList<>();
            for (ConfigurableApplicationContext server : List.of(first, second, first, second)) {
                Http http = new Http(port(server));
                done.add(clients.submit(() -> {
                    int ids = 0;
                    while (!stop.get()) {
                        HttpResponse<String> answer = http.get("/api/shard/get/" + app + "?gatePass=user-"
                                + (ids % 3));
                        if (answer.statusCode() == 200) {
                            long id = Long.parseLong(answer.body().trim());
                            if (!issued.add(id)) {
                                duplicates.add(id);
                            }
                            ids++;
                        }
                    }
                    return ids;
                }));
            }
            Thread.sleep(1_500);
            // The operator's habit: the app's rows deleted, then created again, while it is served.
            DATABASE.update("DELETE FROM id_alloc WHERE app_id = ?", app);
            HttpResponse<String> again = createApp(port(second), app);
            assertThat(again.statusCode()).isEqualTo(409);
            assertThat(again.body()).contains("below-high-water").contains("new app id");
            // Through SQL the rows come back at max_id 0 all the same; the next blocks start above the mark.
            for (int shard = 0; shard < 64; shard++) {
                DATABASE.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, max_limit_id) "
                        + "VALUES (?, 'again', 0, ?, 10, 0)", app, shard);
            }
            Thread.sleep(3_000);
            stop.set(true);
            int total = 0;
            for (Future<Integer> client : done) {
                total += client.get(60, TimeUnit.SECONDS);
            }
            clients.shutdown();

            assertThat(duplicates).isEmpty();
            assertThat(total).isEqualTo(issued.size()).isGreaterThan(200);
            assertThat(new HashSet<>(issued)).hasSize(total);
            assertThat(DATABASE.number("SELECT COUNT(*) FROM leaf_high_water WHERE name LIKE ?", "id_alloc:" + app
                    + ":%")).isPositive();
        }
    }

    /**
     * An app issued plainly, then re-created by SQL with its mode record gone: {@code id_alloc} and
     * {@code leaf_shard_key} rows deleted and 64 rows inserted at {@code max_id} 0 (and, the second
     * time, its mode mark deleted too, as data from before marks were kept would be). A server with a
     * key started after that must not claim the app: its permuted IDs would land on the plain ones.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void anAppReCreatedBySqlWithoutItsModeRecordIsNotClaimedByAKeyedServer(boolean modeMarkDeletedToo)
            throws Exception {
        int app = modeMarkDeletedToo ? 61 : 60;
        Set<Long> issued = new HashSet<>();
        try (ConfigurableApplicationContext plain = start(null, "plain-" + app)) {
            Http http = new Http(port(plain));
            assertThat(createApp(port(plain), app).statusCode()).isEqualTo(201);
            for (int i = 0; i < 200; i++) {
                issued.add(Long.parseLong(http.get("/api/shard/get/" + app + "?gatePass=user-" + (i % 5))
                        .body().trim()));
            }
        }
        DATABASE.update("DELETE FROM id_alloc WHERE app_id = ?", app);
        DATABASE.update("DELETE FROM leaf_shard_key WHERE app_id = ?", app);
        if (modeMarkDeletedToo) {
            DATABASE.update("DELETE FROM leaf_high_water WHERE name LIKE ?", "id_alloc:" + app + ":mode=%");
        }
        for (int shard = 0; shard < 64; shard++) {
            DATABASE.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, max_limit_id) "
                    + "VALUES (?, 'again', 0, ?, 10, 0)", app, shard);
        }
        try (ConfigurableApplicationContext opaque = start(KEY, "opaque-" + app);
                ConfigurableApplicationContext plain = start(null, "plain-again-" + app)) {
            Http keyed = new Http(port(opaque));
            Http unkeyed = new Http(port(plain));
            List<Long> repeated = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                HttpResponse<String> refused = keyed.get("/api/shard/get/" + app + "?gatePass=user-" + (i % 5));
                assertThat(refused.statusCode()).isEqualTo(503);
                assertThat(refused.body()).contains("app-mode-conflict");
                long id = Long.parseLong(unkeyed.get("/api/shard/get/" + app + "?gatePass=user-" + (i % 5))
                        .body().trim());
                if (!issued.add(id)) {
                    repeated.add(id);
                }
            }
            assertThat(repeated).isEmpty();
            assertThat(issued).hasSize(500);
            assertThat(DATABASE.number("SELECT COUNT(*) FROM leaf_shard_key WHERE app_id = ? AND fingerprint = "
                    + "'plain'", app)).isOne();
        }
    }

    /** @param key the opaque key, or null for a server without one */
    private ConfigurableApplicationContext start(String key, String name) {
        return new SpringApplicationBuilder(LeafServerApplication.class).run("--server.port=0",
                "--leaf.snowflake.enable=false", "--leaf.segment.enable=false", "--leaf.shard.enable=true",
                "--leaf.jdbc.url=" + DATABASE.url(), "--leaf.jdbc.username=" + DATABASE.user(),
                "--leaf.jdbc.password=" + DATABASE.password(), "--leaf.data-dir=" + dataDir.resolve(name),
                "--leaf.shard.opaque-key=" + (key == null ? "" : key), "--leaf.admin.token=" + TOKEN,
                "--leaf.shard.refresh-interval=1s");
    }

    private static int port(ConfigurableApplicationContext server) {
        return server.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    private static HttpResponse<String> createApp(int port, int appId) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/admin/apps"))
                .timeout(Duration.ofSeconds(15)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString("{\"appId\":" + appId + ",\"appName\":\"fleet\","
                        + "\"maxLimitId\":1000000}"))
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }
}
