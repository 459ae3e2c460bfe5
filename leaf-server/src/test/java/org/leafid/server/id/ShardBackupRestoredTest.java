package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A backup of a shard app's rows restored under servers that start again (issue 44, item 1, shard
 * apps): an app served, its rows dumped ({@code id_alloc}, {@code leaf_shard_watermark}, its
 * {@code leaf_high_water} marks, the state a {@code mysqldump} holds), more served, the servers
 * stopped, the dump loaded back, the servers started again: on the same data directory (its witness of
 * {@code id_alloc}), and on new, empty ones with Redis as the fleet's witness, with the memory buffer
 * and with the Redis buffer. Every ID is collected; none may repeat.
 */
class ShardBackupRestoredTest {

    private static final String TOKEN = "restore-admin-token-0123456789-abcdefghij";
    private static final TestDatabase DATABASE = TestDatabase.get().derived("shardrestore");

    @TempDir
    Path dataDirs;

    @BeforeAll
    static void emptyTables() {
        DATABASE.forgetApps();
    }

    @AfterAll
    static void dropDatabase() {
        DATABASE.drop();
    }

    @Test
    void aRestartOnTheSameDataDirectoryRepeatsNothingOfARestoredApp() throws Exception {
        Path dataDir = Files.createTempDirectory(dataDirs, "server-");
        int app = 61;
        List<Long> issued = new ArrayList<>();
        Map<String, Long> dump;
        try (ConfigurableApplicationContext server = start(dataDir, List.of())) {
            // No max_limit_id: without a fleet witness the row is carried 1,000 blocks past this server's
            // mark (went-back-skip-blocks), for blocks other servers may have reserved meanwhile.
            assertThat(createApp(port(server), app, 0).statusCode()).isEqualTo(201);
            take(new Http(port(server)), app, 2_000, issued);
            dump = dump(app);
            take(new Http(port(server)), app, 6_000, issued);
        }
        restore(app, dump);
        try (ConfigurableApplicationContext server = start(dataDir, List.of())) {
            take(new Http(port(server)), app, 4_000, issued);
        }
        assertNoneRepeated(issued, 12_000);
    }

    @Test
    void twoNewPodsWithRedisAsWitnessRepeatNothingOfARestoredApp() throws Exception {
        restoredUnderNewPods(62, List.of("--leaf.witness.fleet=redis"));
    }

    /**
     * The Redis buffer ({@code leaf.shard.buffer=redis}): its refills push blocks reserved from the
     * restored rows into Redis lists, each witnessed first. The lists keep what they held (reserved,
     * never served) through the restore.
     */
    @Test
    void theRedisBuffersRefillsRepeatNothingOfARestoredApp() throws Exception {
        emptyRedisLists(63);
        restoredUnderNewPods(63, List.of("--leaf.shard.buffer=redis", "--leaf.witness.fleet=redis"));
    }

    /**
     * Two servers on new, empty data directories serve a narrow app (6,103 indexes a shard), a dump is
     * taken, they serve more and stop; the dump is loaded back and two new ones serve it: the fleet's
     * witness carries each row to its end exactly.
     */
    private void restoredUnderNewPods(int app, List<String> arguments) throws Exception {
        List<String> servers = new ArrayList<>(arguments);
        servers.add("--leaf.witness.namespace=shard-restore-" + UUID.randomUUID().toString().substring(0, 8));
        List<Long> issued = new ArrayList<>();
        Map<String, Long> dump;
        try (ConfigurableApplicationContext a = start(Files.createTempDirectory(dataDirs, "pod-"), servers);
                ConfigurableApplicationContext b = start(Files.createTempDirectory(dataDirs, "pod-"), servers)) {
            assertThat(createApp(port(a), app, 100_000_000).statusCode()).isEqualTo(201);
            waitForApp(new Http(port(b)), app);
            take(new Http(port(a)), app, 1_000, issued);
            take(new Http(port(b)), app, 1_000, issued);
            dump = dump(app);
            for (int round = 0; round < 3; round++) {
                take(new Http(port(a)), app, 1_000, issued);
                take(new Http(port(b)), app, 1_000, issued);
            }
        }
        restore(app, dump);
        try (ConfigurableApplicationContext a = start(Files.createTempDirectory(dataDirs, "pod-"), servers);
                ConfigurableApplicationContext b = start(Files.createTempDirectory(dataDirs, "pod-"), servers)) {
            for (int round = 0; round < 2; round++) {
                take(new Http(port(a)), app, 1_000, issued);
                take(new Http(port(b)), app, 1_000, issued);
            }
        }
        assertNoneRepeated(issued, 12_000);
    }

    /** The lists an earlier run left in the local Redis would hand out its indexes again. */
    private static void emptyRedisLists(int app) {
        RedisClient client = RedisClient.create("redis://127.0.0.1:6379");
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            List<String> keys = connection.sync().keys("id.gen.*_" + app + "_*");
            if (!keys.isEmpty()) {
                connection.sync().del(keys.toArray(String[]::new));
            }
        } finally {
            client.shutdown();
        }
    }

    private static void assertNoneRepeated(List<Long> issued, int expected) {
        Set<Long> distinct = new HashSet<>(issued);
        assertThat(issued).hasSize(expected);
        assertThat(distinct).as("IDs served twice across the restore").hasSize(issued.size());
    }

    /** Batches of 50 from gate passes spread over the shards. */
    private static void take(Http http, int app, int count, List<Long> into) {
        for (int taken = 0; taken < count; taken += 50) {
            HttpResponse<String> answer = http.get("/api/shard/get/" + app + "?gatePass=user-" + (taken / 50 % 9)
                    + "&count=50");
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            answer.body().lines().map(Long::parseLong).forEach(into::add);
        }
    }

    private static void waitForApp(Http http, int app) throws InterruptedException {
        for (int attempt = 0; attempt < 100; attempt++) {
            if (http.get("/api/shard/get/" + app + "?gatePass=probe").statusCode() != 404) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("app " + app + " not served by the second server after 10 s");
    }

    /** What a dump holds of the app: its rows' max_id, the Redis buffer's watermarks and the high-water marks. */
    private static Map<String, Long> dump(int app) throws SQLException {
        Map<String, Long> dump = new LinkedHashMap<>();
        try (Connection connection = DATABASE.connect()) {
            read(connection, "SELECT shard_id, max_id FROM id_alloc WHERE app_id = ?", app, "id_alloc:", dump);
            read(connection, "SELECT shard_id, issued_high FROM leaf_shard_watermark WHERE app_id = ?", app,
                    "watermark:", dump);
            try (PreparedStatement marks = connection.prepareStatement(
                    "SELECT name, high FROM leaf_high_water WHERE name LIKE ?")) {
                marks.setString(1, "id_alloc:" + app + ":%");
                try (ResultSet rows = marks.executeQuery()) {
                    while (rows.next()) {
                        dump.put("high:" + rows.getString(1), rows.getLong(2));
                    }
                }
            }
        }
        assertThat(dump.keySet().stream().filter(k -> k.startsWith("id_alloc:"))).hasSize(64);
        return dump;
    }

    private static void read(Connection connection, String sql, int app, String prefix, Map<String, Long> into)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setInt(1, app);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    into.put(prefix + rows.getInt(1), rows.getLong(2));
                }
            }
        }
    }

    /** The dump loaded back, in one transaction: every row as it was when the dump was taken. */
    private static void restore(int app, Map<String, Long> dump) throws SQLException {
        try (Connection connection = DATABASE.connect()) {
            connection.setAutoCommit(false);
            try (PreparedStatement row = connection.prepareStatement(
                    "UPDATE id_alloc SET max_id = ? WHERE app_id = ? AND shard_id = ?");
                    PreparedStatement watermark = connection.prepareStatement(
                            "UPDATE leaf_shard_watermark SET issued_high = ? WHERE app_id = ? AND shard_id = ?");
                    PreparedStatement mark = connection.prepareStatement(
                            "UPDATE leaf_high_water SET high = ? WHERE name = ?")) {
                for (Map.Entry<String, Long> entry : dump.entrySet()) {
                    String key = entry.getKey();
                    String name = key.substring(key.indexOf(':') + 1);
                    PreparedStatement statement = key.startsWith("id_alloc:") ? row
                            : key.startsWith("watermark:") ? watermark : mark;
                    statement.setLong(1, entry.getValue());
                    if (statement == mark) {
                        statement.setString(2, name);
                    } else {
                        statement.setInt(2, app);
                        statement.setInt(3, Integer.parseInt(name));
                    }
                    assertThat(statement.executeUpdate()).as(key).isOne();
                }
            }
            connection.commit();
        }
    }

    private ConfigurableApplicationContext start(Path dataDir, List<String> extra) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--leaf.snowflake.enable=false",
                "--leaf.segment.enable=false", "--leaf.shard.enable=true", "--leaf.jdbc.url=" + DATABASE.url(),
                "--leaf.jdbc.username=" + DATABASE.user(), "--leaf.jdbc.password=" + DATABASE.password(),
                "--leaf.data-dir=" + dataDir, "--leaf.admin.token=" + TOKEN, "--leaf.shard.refresh-interval=1s"));
        arguments.addAll(extra);
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments.toArray(String[]::new));
    }

    private static int port(ConfigurableApplicationContext server) {
        return server.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    private static HttpResponse<String> createApp(int port, int appId, long maxLimitId) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/admin/apps"))
                .timeout(Duration.ofSeconds(15)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString("{\"appId\":" + appId + ",\"appName\":\"restored\","
                        + "\"step\":10,\"maxLimitId\":" + maxLimitId + "}"))
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }
}
