package org.leafid.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.LeafServerApplication;
import org.leafid.testing.jdbc.MariadbServer;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Issue 44's original found twice at once, black-box: a tag served from the local MariaDB, the
 * database cloned under the same name onto a second MariaDB server, a server on each, Redis as the
 * fleet's witness. The clone's first block is a row that went back; the next block either database
 * answers within the other's proves two at once, and from then on both servers answer 503 for the
 * tag. The clone's server stopped and the tag released, the original's goes on. Every ID is collected;
 * none may repeat.
 */
class FoundTwiceTest {

    private static final String TOKEN = "twice-admin-token-0123456789-abcdefghijkl";

    @TempDir
    Path dirs;

    @Test
    void theOriginalAndACloneUnderTheSameNameAreRefusedUntilReleased() throws Exception {
        TestDatabase original = TestDatabase.get().derived("twice");
        String tag = original.newTag("twice", 1, 100);
        String namespace = "twice-" + UUID.randomUUID().toString().substring(0, 8);
        Set<Long> issued = new HashSet<>();
        // Not under @TempDir, whose mode keeps out the mysql user mariadbd runs as.
        try (MariadbServer other = MariadbServer.primary(Files.createTempDirectory("leaf-twice-mariadb-"));
                ConfigurableApplicationContext serverA = start(original, "a", namespace)) {
            AdminHttp a = new AdminHttp(port(serverA), TOKEN);
            take(a, tag, 1_000, issued);
            TestDatabase clone = TestDatabase.prepare("jdbc:mysql://127.0.0.1:" + other.port() + "/" + original.name(),
                    "root", "");
            original.copyTo(clone);
            try (ConfigurableApplicationContext serverB = start(clone, "b", namespace)) {
                AdminHttp b = new AdminHttp(port(serverB), TOKEN);
                String refusal = null;
                for (int round = 0; round < 50 && refusal == null; round++) {
                    refusal = takeOrRefused(b, tag, 100, issued);
                    if (refusal == null) {
                        refusal = takeOrRefused(a, tag, 100, issued);
                    }
                }
                assertThat(refusal).as("found twice").isNotNull().contains("two databases answer for this row at once")
                        .contains("store-unavailable");
                // Each server serves what it claimed before, then is refused, whichever database it uses.
                assertThat(drainUntilRefused(a, tag, issued)).contains("two databases answer");
                assertThat(drainUntilRefused(b, tag, issued)).contains("two databases answer");
            } // the clone's server stopped

            assertThat(a.send("POST", "/api/admin/witness/release", null, "{\"key\":\"" + tag + "\"}")
                    .statusCode()).as("without the token").isEqualTo(401);
            HttpResponse<String> badTable = a.admin("POST", "/api/admin/witness/release",
                    "{\"table\":\"leaf_workerid_alloc\",\"key\":\"" + tag + "\"}");
            assertThat(badTable.statusCode()).isEqualTo(400);
            assertThat(AdminHttp.json(badTable).path("field").stringValue()).isEqualTo("table");
            assertThat(a.get("/api/segment/get/" + tag + "?count=50").statusCode()).as("still refused")
                    .isEqualTo(503);

            HttpResponse<String> released = a.admin("POST", "/api/admin/witness/release",
                    "{\"table\":\"leaf_alloc\",\"key\":\"" + tag + "\"}");
            assertThat(released.statusCode()).as(released.body()).isEqualTo(200);
            assertThat(AdminHttp.json(released).path("released").asBoolean()).isTrue();
            take(a, tag, 1_000, issued);
            assertThat(AdminHttp.json(a.admin("POST", "/api/admin/witness/release", "{\"key\":\"" + tag + "\"}"))
                    .path("released").asBoolean()).as("released once").isFalse();
        } finally {
            original.drop();
        }
        assertThat(issued.size()).isGreaterThan(2_000);
    }

    /** Batches of 50 until {@code count}; the problem's body when refused, null when all were served. */
    private static String takeOrRefused(AdminHttp http, String tag, int count, Set<Long> issued) {
        for (int taken = 0; taken < count; taken += 50) {
            HttpResponse<String> answer = http.get("/api/segment/get/" + tag + "?count=50");
            if (answer.statusCode() == 503) {
                return answer.body();
            }
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            answer.body().lines().map(Long::parseLong)
                    .forEach(id -> assertThat(issued.add(id)).as("ID %d issued twice", id).isTrue());
        }
        return null;
    }

    private static String drainUntilRefused(AdminHttp http, String tag, Set<Long> issued) {
        String refusal = takeOrRefused(http, tag, 100_000, issued);
        assertThat(refusal).as("refused within 100,000 IDs").isNotNull();
        return refusal;
    }

    private static void take(AdminHttp http, String tag, int count, Set<Long> issued) {
        assertThat(takeOrRefused(http, tag, count, issued)).isNull();
    }

    private ConfigurableApplicationContext start(TestDatabase database, String name, String namespace) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--leaf.snowflake.enable=false",
                "--leaf.data-dir=" + dirs.resolve(name), "--leaf.admin.token=" + TOKEN,
                "--leaf.witness.fleet=redis", "--leaf.witness.namespace=" + namespace,
                "--leaf.segment.max-step=100"));
        for (Map.Entry<String, Object> property : database.serverProperties().entrySet()) {
            arguments.add("--" + property.getKey() + "=" + property.getValue());
        }
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments.toArray(String[]::new));
    }

    private static int port(ConfigurableApplicationContext server) {
        return server.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }
}
