package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.shard.ShardId;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A shard batch asked for as {@code application/vnd.leaf.ranges+json}, through the real server on
 * MariaDB: runs of IDs that step by 2^14 (consecutive indexes of one shard), the same IDs a list
 * would have held and none twice; an app with an opaque key keeps the list form.
 */
class ShardRangesHttpTest {

    private static final String RANGES = "application/vnd.leaf.ranges+json";
    private static final String TOKEN = "ranges-admin-token-0123456789-abcdefghij";
    private static final String KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    private static final TestDatabase DATABASE = TestDatabase.get().derived("shardranges");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long LIMIT = 1L << 40;

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
    void shardBatchesAsRangesStepByTheIndexAndNeverRepeat() throws Exception {
        int app = 21;
        List<Long> ids = new ArrayList<>();
        try (ConfigurableApplicationContext server = start(null)) {
            int port = port(server);
            assertThat(createApp(port, app).statusCode()).isEqualTo(201);
            Http http = new Http(port);
            int shard = ShardId.shardOf("alice");
            for (int round = 0; round < 20; round++) {
                HttpResponse<String> gated = http.send("GET", "/api/shard/get/" + app + "?gatePass=alice&count=250",
                        "Accept", RANGES);
                assertThat(gated.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                        .startsWith(RANGES));
                long[] batch = idsOf(gated.body(), 250);
                assertThat(Arrays.stream(batch).map(id -> ShardId.decode(id).shardId()).distinct().toArray())
                        .containsExactly(shard);
                Arrays.stream(batch).forEach(ids::add);
                HttpResponse<String> anyShard = http.send("GET", "/api/shard/get/" + app + "?count=250", "Accept",
                        RANGES);
                Arrays.stream(idsOf(anyShard.body(), 250)).forEach(ids::add);
                Arrays.stream(http.get("/api/shard/get/" + app + "?gatePass=alice&count=50").body().split("\n"))
                        .map(Long::parseLong).forEach(ids::add);
            }
        }
        assertThat(ids).hasSize(20 * 550).doesNotHaveDuplicates()
                .allSatisfy(id -> assertThat(ShardId.decode(id).appId()).isEqualTo(app));
    }

    @Test
    void anOpaqueAppKeepsTheListForm() throws Exception {
        int app = 22;
        try (ConfigurableApplicationContext server = start(KEY)) {
            int port = port(server);
            assertThat(createApp(port, app).statusCode()).isEqualTo(201);
            HttpResponse<String> answer = new Http(port).send("GET", "/api/shard/get/" + app + "?gatePass=bob&count=20",
                    "Accept", RANGES + ", text/plain;q=0.5");
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                    .startsWith("text/plain"));
            assertThat(answer.body().split("\n")).hasSize(20).doesNotHaveDuplicates();
        }
    }

    /** The IDs of an answer as ranges, checked: the count, the stride of a shard, runs adding up. */
    private static long[] idsOf(String body, int count) {
        JsonNode answer = JSON.readTree(body);
        assertThat(answer.get("count").asInt()).isEqualTo(count);
        long stride = Long.parseLong(answer.get("stride").asString());
        assertThat(stride).isEqualTo(1L << ShardId.INDEX_SHIFT);
        List<Long> ids = new ArrayList<>();
        for (JsonNode run : answer.get("ranges")) {
            long first = Long.parseLong(run.get(0).asString());
            long last = Long.parseLong(run.get(1).asString());
            assertThat((last - first) % stride).isZero();
            for (long id = first; id <= last; id += stride) {
                ids.add(id);
            }
        }
        assertThat(ids).hasSize(count);
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    private ConfigurableApplicationContext start(String opaqueKey) {
        return new SpringApplicationBuilder(LeafServerApplication.class).run("--server.port=0",
                "--leaf.snowflake.enable=false", "--leaf.segment.enable=false", "--leaf.shard.enable=true",
                "--leaf.jdbc.url=" + DATABASE.url(), "--leaf.jdbc.username=" + DATABASE.user(),
                "--leaf.jdbc.password=" + DATABASE.password(), "--leaf.data-dir=" + dataDir,
                "--leaf.shard.opaque-key=" + (opaqueKey == null ? "" : opaqueKey), "--leaf.admin.token=" + TOKEN);
    }

    private static int port(ConfigurableApplicationContext server) {
        return server.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    private static HttpResponse<String> createApp(int port, int app) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/admin/apps"))
                .timeout(Duration.ofSeconds(15)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.ofString(
                        "{\"appId\":" + app + ",\"appName\":\"ranges\",\"maxLimitId\":" + LIMIT + "}")).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }
}
