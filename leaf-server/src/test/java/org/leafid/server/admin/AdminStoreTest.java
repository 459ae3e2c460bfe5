package org.leafid.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.LeafServerApplication;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Issue 44's copy under a new name, black-box on MariaDB: server A on the original, server B on a dump
 * of it loaded into another database of the same server. B serves nothing (503 naming the copy)
 * while A goes on, until an operator declares the copy with {@code POST /api/admin/store/declare};
 * a declaration without the token, without a name or with another name changes nothing. Every ID
 * of both servers is collected and none repeats.
 */
class AdminStoreTest {

    private static final String TOKEN = "store-admin-token-0123456789-abcdefghijkl";

    @TempDir
    Path dataDirA;
    @TempDir
    Path dataDirB;

    @Test
    void aCopyUnderAnotherNameServesNothingUntilDeclared() {
        TestDatabase original = TestDatabase.get().derived("adm_original");
        TestDatabase copy = null;
        String tag = original.newTag("copied", 1, 100);
        Set<Long> issued = new HashSet<>();
        try (ConfigurableApplicationContext serverA = start(original, dataDirA)) {
            AdminHttp a = http(serverA);
            take(a, tag, 1_000, issued);
            copy = original.copyAs("copy"); // a dump of the original loaded into another database
            try (ConfigurableApplicationContext serverB = start(copy, dataDirB)) {
                AdminHttp b = http(serverB);
                for (int round = 0; round < 3; round++) {
                    take(a, tag, 500, issued);
                    HttpResponse<String> refused = b.get("/api/segment/get/" + tag + "?count=50");
                    assertThat(refused.statusCode()).isEqualTo(503);
                    assertThat(refused.body()).contains("a copy") // its name only for the admin token
                            .doesNotContain(copy.name());
                }

                assertThat(b.send("POST", "/api/admin/store/declare", null, "{\"database\":\"" + copy.name() + "\"}")
                        .statusCode()).isEqualTo(401);
                HttpResponse<String> unnamed = b.admin("POST", "/api/admin/store/declare", "{}");
                assertThat(unnamed.statusCode()).isEqualTo(400);
                assertThat(AdminHttp.json(unnamed).path("field").stringValue()).isEqualTo("database");
                HttpResponse<String> other = b.admin("POST", "/api/admin/store/declare",
                        "{\"database\":\"" + original.name() + "\"}");
                assertThat(other.statusCode()).isEqualTo(400);
                assertThat(other.body()).contains(copy.name()).contains("nothing was changed");
                assertThat(b.get("/api/segment/get/" + tag + "?count=50").statusCode()).as("still refused")
                        .isEqualTo(503);

                HttpResponse<String> declared = b.admin("POST", "/api/admin/store/declare",
                        "{\"database\":\"" + copy.name() + "\"}");
                assertThat(declared.statusCode()).as(declared.body()).isEqualTo(200);
                assertThat(AdminHttp.json(declared).path("tags").asLong()).isGreaterThanOrEqualTo(1);
                take(b, tag, 1_000, issued);
                take(a, tag, 1_000, issued);
            }
        } finally {
            if (copy != null) {
                copy.drop();
            }
            original.drop();
        }
        assertThat(issued).as("IDs of both servers, none twice").hasSize(4_500);
    }

    /** Batches of 50; an ID already issued by either server fails here. */
    private static void take(AdminHttp http, String tag, int count, Set<Long> issued) {
        for (int taken = 0; taken < count; taken += 50) {
            HttpResponse<String> answer = http.get("/api/segment/get/" + tag + "?count=50");
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            answer.body().lines().map(Long::parseLong)
                    .forEach(id -> assertThat(issued.add(id)).as("ID %d issued twice", id).isTrue());
        }
    }

    private static ConfigurableApplicationContext start(TestDatabase database, Path dataDir) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--leaf.snowflake.enable=false",
                "--leaf.data-dir=" + dataDir, "--leaf.admin.token=" + TOKEN));
        for (Map.Entry<String, Object> property : database.serverProperties().entrySet()) {
            arguments.add("--" + property.getKey() + "=" + property.getValue());
        }
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments.toArray(String[]::new));
    }

    private static AdminHttp http(ConfigurableApplicationContext server) {
        return new AdminHttp(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class), TOKEN);
    }
}
