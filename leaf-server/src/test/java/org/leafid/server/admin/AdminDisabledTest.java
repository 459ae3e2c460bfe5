package org.leafid.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.leafid.server.admin.AdminHttp.json;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.support.TestServerKeys;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/** With no {@code leaf.admin.token}, the admin paths are indistinguishable from paths that do not exist. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AdminDisabledTest {

    private static final TestDatabase DATABASE = TestDatabase.get();

    @LocalServerPort
    int port;

    private AdminHttp http;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, "admin-disabled");
        registry.add("leaf.snowflake.port", () -> "18084");
        registry.add("leaf.admin.token", () -> ""); // empty, as LEAF_ADMIN_TOKEN= would be: still off
    }

    @BeforeEach
    void client() {
        http = new AdminHttp(port, "some-token-someone-guessed");
    }

    @Test
    void everyAdminPathAnswersLikeAPathThatDoesNotExist() {
        List<String> paths = List.of("/api/admin/tags", "/api/admin/tags/leaf-segment-test/step",
                "/api/admin/refresh", "/api/admin", "/api/admin/anything/else");
        for (String method : List.of("GET", "POST", "PUT", "DELETE", "PATCH")) {
            JsonNode nowhere = json(http.send(method, "/api/no-such-path", null, null));
            for (String path : paths) {
                for (String authorization : new String[] {null, "Bearer some-token-someone-guessed"}) {
                    HttpResponse<String> response = http.send(method, path, authorization, "{\"step\":10}");
                    String what = method + " " + path + " with " + authorization;

                    assertThat(response.statusCode()).as(what).isEqualTo(404);
                    assertThat(response.headers().firstValue("Content-Type")).as(what).hasValueSatisfying(
                            type -> assertThat(type).startsWith("application/problem+json"));
                    assertThat(response.headers().firstValue("WWW-Authenticate")).as(what).isEmpty();
                    JsonNode problem = json(response);
                    assertThat(problem.get("type")).as(what).isEqualTo(nowhere.get("type"));
                    assertThat(problem.get("title")).as(what).isEqualTo(nowhere.get("title"));
                    String nowhereDetail = nowhere.get("detail").stringValue();
                    assertThat(problem.get("detail").stringValue()).as(what)
                            .isEqualTo(nowhereDetail.replace("api/no-such-path", path.substring(1)));
                }
            }
        }
    }

    @Test
    void theTagsViewNeedsNoToken() {
        HttpResponse<String> response = http.get("/api/segment/tags");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).isArray()).isTrue();
    }
}
