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
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.shard.ShardId;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Opaque shard IDs ({@code leaf.shard.opaque-key}) through the real server on MariaDB: the index
 * part no longer counts up, decoding it needs the admin token, and a server with another key (or
 * none) on the same database does not serve the app: 503 app-mode-conflict, readiness DOWN.
 */
class ShardOpaqueHttpTest {

    private static final String KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    private static final String OTHER_KEY = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";
    private static final String TOKEN = "opaque-admin-token-0123456789-abcdefghij";
    private static final TestDatabase DATABASE = TestDatabase.get().derived("shardopaque");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int APP = 12;
    private static final long LIMIT = 1L << 32;

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
    void opaqueIdsHideTheirIndexFromAllButTheAdminAndAnotherKeyIsRefused() throws Exception {
        List<Long> ids = new ArrayList<>();
        try (ConfigurableApplicationContext server = start(KEY)) {
            int port = port(server);
            HttpResponse<String> created = post(port, "/api/admin/apps",
                    "{\"appId\":" + APP + ",\"appName\":\"opaque\",\"maxLimitId\":" + LIMIT + "}");
            assertThat(created.statusCode()).isEqualTo(201);
            Http http = new Http(port);
            for (int i = 0; i < 200; i++) {
                ids.add(http.getId("/api/shard/get/" + APP + "?gatePass=alice"));
            }
            assertThat(new HashSet<>(ids)).hasSize(200);
            assertThat(ids).allSatisfy(id -> assertThat(id).isLessThan(LIMIT));
            int shard = ShardId.shardOf("alice");
            assertThat(ids).allSatisfy(id -> assertThat(ShardId.decode(id).shardId()).isEqualTo(shard));
            // Consecutive IDs of one user no longer count up: more than a few go down.
            int down = 0;
            for (int i = 1; i < ids.size(); i++) {
                if (ids.get(i) < ids.get(i - 1)) {
                    down++;
                }
            }
            assertThat(down).as("IDs lower than the one before, of 199").isBetween(60, 140);

            // Decoding: shard and app for anyone, the index for the admin only.
            long third = ids.get(2);
            JsonNode anyone = JSON.readTree(http.get("/api/shard/decode/" + third).body());
            assertThat(anyone.get("appId").asInt()).isEqualTo(APP);
            assertThat(anyone.get("shardId").asInt()).isEqualTo(shard);
            assertThat(anyone.has("index")).isFalse();
            assertThat(anyone.get("indexHidden").asString()).contains("admin token");
            HttpResponse<String> wrongToken = http.send("GET", "/api/shard/decode/" + third, "Authorization",
                    "Bearer not-the-token-at-all-0000");
            assertThat(wrongToken.statusCode()).isEqualTo(403);
            assertThat(JSON.readTree(wrongToken.body()).has("index")).isFalse();
            JsonNode admin = JSON.readTree(http.send("GET", "/api/shard/decode/" + third, "Authorization",
                    "Bearer " + TOKEN).body());
            assertThat(admin.get("index").asLong()).as("the third ID of the shard's first block").isEqualTo(3);
            assertThat(JSON.readTree(http.get("/api/shard/apps").body()).get(0).get("opaque").asBoolean()).isTrue();
            // The volume opaque IDs hide is not published per app: opaque apps are counted together.
            String metrics = http.get("/actuator/prometheus").body();
            assertThat(metrics).contains("leaf_ids_issued_total{key=\"opaque\",mode=\"shard\"} 200")
                    .doesNotContain("key=\"" + APP + "\",mode=\"shard\"");
        }

        // Another key: the server starts, but does not serve the app (its IDs would repeat), and says why.
        try (ConfigurableApplicationContext server = start(OTHER_KEY)) {
            assertRefused(new Http(port(server)), "app " + APP + "'s IDs are issued with key", "create a new app id");
        }

        // The right key again: served on from where the first server left, no ID repeated.
        try (ConfigurableApplicationContext server = start(KEY)) {
            Http http = new Http(port(server));
            Set<Long> all = new HashSet<>(ids);
            for (int i = 0; i < 200; i++) {
                assertThat(all.add(http.getId("/api/shard/get/" + APP + "?gatePass=alice"))).isTrue();
            }
        }

        // A server without the key would issue plain IDs that permuted ones may equal: refused.
        try (ConfigurableApplicationContext server = start(null)) {
            assertRefused(new Http(port(server)), "app " + APP + "'s IDs are opaque", "has no leaf.shard.opaque-key");
        }
    }

    @Test
    void anAppThatIssuedPlainIdsIsRecordedPlainAndNotServedWithAKey() {
        int plainApp = 13;
        for (int shard = 0; shard < 64; shard++) {
            DATABASE.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, max_limit_id) "
                    + "VALUES (?, 'plain', ?, ?, 1000, 0)", plainApp, shard == 5 ? 1000 : 0, shard);
        }
        try (ConfigurableApplicationContext server = start(KEY)) {
            Http http = new Http(port(server));
            HttpResponse<String> get = http.get("/api/shard/get/" + plainApp);
            assertThat(get.statusCode()).isEqualTo(503);
            assertThat(get.body()).contains("app-mode-conflict").contains("app " + plainApp + " issues plain IDs");
        } finally {
            DATABASE.update("DELETE FROM id_alloc WHERE app_id = ?", plainApp);
        }
        assertThat(DATABASE.number("SELECT COUNT(*) FROM leaf_shard_key WHERE app_id = ? AND fingerprint = 'plain'",
                plainApp)).isOne();
    }

    /** The app answers 503 app-mode-conflict with the reason, and readiness is DOWN naming it. */
    private static void assertRefused(Http http, String... reason) {
        HttpResponse<String> get = http.get("/api/shard/get/" + APP + "?gatePass=alice");
        assertThat(get.statusCode()).isEqualTo(503);
        assertThat(get.body()).contains("urn:leaf:problem:app-mode-conflict").contains(reason);
        HttpResponse<String> readiness = http.get("/actuator/health/readiness");
        assertThat(readiness.statusCode()).isEqualTo(503);
        assertThat(readiness.body()).contains("shardApps").contains("\"" + APP + "\"").contains(reason[0]);
    }

    /** @param key the opaque key, or null for a server without one */
    private ConfigurableApplicationContext start(String key) {
        return new SpringApplicationBuilder(LeafServerApplication.class).run("--server.port=0",
                "--leaf.snowflake.enable=false", "--leaf.segment.enable=false", "--leaf.shard.enable=true",
                "--leaf.jdbc.url=" + DATABASE.url(), "--leaf.jdbc.username=" + DATABASE.user(),
                "--leaf.jdbc.password=" + DATABASE.password(), "--leaf.data-dir=" + dataDir,
                "--leaf.shard.opaque-key=" + (key == null ? "" : key), "--leaf.admin.token=" + TOKEN);
    }

    private static int port(ConfigurableApplicationContext server) {
        return server.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    private static HttpResponse<String> post(int port, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(15)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }
}
