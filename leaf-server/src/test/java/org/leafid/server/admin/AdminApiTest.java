package org.leafid.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.leafid.server.admin.AdminHttp.json;
import static org.leafid.server.admin.AdminHttp.tagBody;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.support.TestServerKeys;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The admin API through the real server on a random port, on the real MySQL-protocol database.
 * The periodic tag refresh is set to an hour, so every change of the served tags seen here comes
 * from the admin API itself.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AdminApiTest {

    private static final String TOKEN = "test-admin-token-" + UUID.randomUUID();
    private static final TestDatabase DATABASE = TestDatabase.get();

    @LocalServerPort
    int port;

    private AdminHttp http;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, "admin");
        registry.add("leaf.snowflake.port", () -> "18083");
        registry.add("leaf.segment.refresh-interval", () -> "1h");
        registry.add("leaf.admin.token", () -> TOKEN);
    }

    @BeforeEach
    void client() {
        http = new AdminHttp(port, TOKEN);
    }

    @Test
    void requestsWithoutABearerTokenAre401WithAChallengeAndChangeNothing() {
        String tag = newTagName("no-token");
        for (String authorization : new String[] {null, "Basic YWRtaW46YWRtaW4=", "Bearer ", TOKEN}) {
            List<HttpResponse<String>> responses = List.of(
                    http.send("POST", "/api/admin/tags", authorization, tagBody(tag, 10, "")),
                    http.send("PUT", "/api/admin/tags/leaf-segment-test/step", authorization, "{\"step\":5}"),
                    http.send("POST", "/api/admin/refresh", authorization, null));
            for (HttpResponse<String> response : responses) {
                assertThat(response.statusCode()).as("Authorization: %s", authorization).isEqualTo(401);
                assertProblem(response, "unauthorized");
                assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                        challenge -> assertThat(challenge).startsWith("Bearer"));
            }
        }
        assertThat(row(tag)).isNull();
    }

    @Test
    void aWrongTokenIs403AndChangesNothing() {
        String tag = newTagName("wrong-token");
        for (String wrong : new String[] {TOKEN + "x", TOKEN.substring(1), TOKEN.toUpperCase(), "x"}) {
            HttpResponse<String> response = http.send("POST", "/api/admin/tags", "Bearer " + wrong,
                    tagBody(tag, 10, ""));
            assertThat(response.statusCode()).as(wrong).isEqualTo(403);
            assertProblem(response, "forbidden");
            assertThat(response.body()).doesNotContain(TOKEN);
        }
        assertThat(row(tag)).isNull();
    }

    @Test
    void aCreatedTagIsServedAtOnceStartingAtItsMaxId() {
        String tag = newTagName("created");

        HttpResponse<String> created = http.admin("POST", "/api/admin/tags", tagBody(tag, 100, ""));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(created.headers().firstValue("Location")).hasValueSatisfying(
                location -> assertThat(location).endsWith("/api/segment/tags/" + tag));
        JsonNode body = json(created);
        assertThat(body.get("tag").stringValue()).isEqualTo(tag);
        assertThat(body.get("maxId").stringValue()).isEqualTo("1");
        assertThat(body.get("step").intValue()).isEqualTo(100);
        assertThat(body.get("description").isNull()).isTrue();
        assertThat(row(tag)).containsEntry("max_id", 1L).containsEntry("step", 100);
        // Leaf semantics: the first block is (1, 101], so a new tag serves 1, 2, 3, ...
        assertThat(http.get("/api/segment/get/" + tag).body()).isEqualTo("1");
        assertThat(http.get("/api/segment/get/" + tag).body()).isEqualTo("2");
    }

    @Test
    void maxIdAndDescriptionAreStoredAndALargeMaxIdMayComeAsAString() {
        String tag = newTagName("big");
        long maxId = 5_000_000_000_000_000_123L; // beyond 2^53: a JavaScript number would round it

        HttpResponse<String> created = http.admin("POST", "/api/admin/tags",
                tagBody(tag, 1000, "\"maxId\":\"" + maxId + "\",\"description\":\"order ids\""));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(json(created).get("maxId").stringValue()).isEqualTo(Long.toString(maxId));
        assertThat(row(tag)).containsEntry("max_id", maxId).containsEntry("description", "order ids");
        assertThat(http.get("/api/segment/get/" + tag).body()).isEqualTo(Long.toString(maxId));
    }

    @Test
    void creatingAnExistingTagIs409AndLeavesTheRowAlone() {
        String tag = newTagName("duplicate");
        assertThat(http.admin("POST", "/api/admin/tags", tagBody(tag, 100, "")).statusCode()).isEqualTo(201);

        HttpResponse<String> again = http.admin("POST", "/api/admin/tags", tagBody(tag, 999, "\"maxId\":77"));

        assertThat(again.statusCode()).isEqualTo(409);
        assertProblem(again, "tag-exists");
        assertThat(again.body()).contains(tag);
        assertThat(row(tag)).containsEntry("max_id", 1L).containsEntry("step", 100);
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void wrongTokensAreLoggedAtMostOncePerTenSeconds(CapturedOutput output) {
        int logStart = output.length();
        // Fewer than the 20 wrong tokens a minute after which this address would get 429 (AdminWrongTokenLimitTest),
        // together with the other wrong tokens of this context.
        for (int i = 0; i < 12; i++) {
            assertThat(http.send("POST", "/api/admin/refresh", "Bearer wrong-" + i + TOKEN, null).statusCode())
                    .isEqualTo(403);
        }
        // At most one line: a line of an earlier test in this context may still hold the 10 s window.
        assertThat(output.toString().substring(logStart).lines().filter(line -> line.contains("wrong token")))
                .hasSizeLessThanOrEqualTo(1);
    }

    @Test
    void nulAndControlCharactersInADescriptionAre400AndWriteNothing() {
        String tag = newTagName("control");
        for (String description : List.of("a\\u0000b", "two\\nlines", "esc\\u001b[31m", "tab\\there")) {
            HttpResponse<String> response = http.admin("POST", "/api/admin/tags", tagBody(tag, 10,
                    "\"description\":\"" + description + "\""));
            assertThat(response.statusCode()).as(description).isEqualTo(400);
            assertProblem(response, "invalid-request");
            assertThat(json(response).get("field").stringValue()).isEqualTo("description");
        }
        HttpResponse<String> duplicate = http.admin("POST", "/api/admin/tags",
                "{\"tag\":\"" + tag + "\",\"step\":10,\"step\":20}");
        assertThat(duplicate.statusCode()).isEqualTo(400);
        assertProblem(duplicate, "invalid-request");
        assertThat(row(tag)).isNull();
    }

    @Test
    void badCreateBodiesAre400NamingTheFieldAndWriteNothing() {
        String tag = newTagName("bad");
        Map<String, String> bodies = new LinkedHashMap<>(); // body -> what the detail must name
        bodies.put("{\"tag\":\"" + tag + "\",\"step\":", "JSON");
        bodies.put("not json at all", "JSON");
        bodies.put("[1,2]", "JSON object");
        bodies.put(tagBody(tag, 0, ""), "'step'");
        bodies.put(tagBody(tag, -1, ""), "'step'");
        bodies.put(tagBody(tag, 1_000_000_001, ""), "'step'");
        bodies.put("{\"tag\":\"" + tag + "\",\"step\":\"abc\"}", "'step'");
        bodies.put("{\"tag\":\"" + tag + "\",\"step\":\"10\"}", "'step'");
        bodies.put("{\"tag\":\"" + tag + "\",\"step\":1.5}", "'step'");
        bodies.put("{\"tag\":\"" + tag + "\",\"step\":null}", "'step'");
        bodies.put("{\"tag\":\"" + tag + "\"}", "'step'");
        bodies.put(tagBody("has space", 10, ""), "'tag'");
        bodies.put(tagBody("x".repeat(129), 10, ""), "'tag'");
        bodies.put(tagBody("", 10, ""), "'tag'");
        bodies.put("{\"tag\":42,\"step\":10}", "'tag'");
        bodies.put("{\"step\":10}", "'tag'");
        bodies.put(tagBody(tag, 10, "\"maxId\":0"), "'maxId'");
        bodies.put(tagBody(tag, 10, "\"maxId\":-5"), "'maxId'");
        bodies.put(tagBody(tag, 10, "\"maxId\":" + (Long.MAX_VALUE - 9)), "'maxId'");
        bodies.put(tagBody(tag, 10, "\"maxId\":\"12x\""), "'maxId'");
        bodies.put(tagBody(tag, 10, "\"description\":\"" + "d".repeat(257) + "\""), "'description'");
        bodies.put(tagBody(tag, 10, "\"description\":7"), "'description'");
        bodies.put(tagBody(tag, 10, "\"stepp\":10"), "'stepp'");
        // Counted among the tags these bodies name, not the whole table: other runs share the database.
        List<String> named = List.of(tag, "has space", "x".repeat(129), "");
        long rowsBefore = rowCount(named);

        for (Map.Entry<String, String> bad : bodies.entrySet()) {
            HttpResponse<String> response = http.admin("POST", "/api/admin/tags", bad.getKey());

            assertThat(response.statusCode()).as(bad.getKey()).isEqualTo(400);
            assertProblem(response, "invalid-request");
            assertThat(json(response).get("detail").stringValue()).as(bad.getKey()).contains(bad.getValue());
        }
        HttpResponse<String> noBody = http.send("POST", "/api/admin/tags", "Bearer " + TOKEN, null);
        assertThat(noBody.statusCode()).isIn(400, 415);
        assertThat(row(tag)).isNull();
        assertThat(rowCount(named)).isEqualTo(rowsBefore);
    }

    @Test
    void aChangedStepIsInTheRowAndSizesTheNextBlock() {
        String tag = newTagName("step");
        assertThat(http.admin("POST", "/api/admin/tags", tagBody(tag, 100, "")).statusCode()).isEqualTo(201);
        assertThat(http.get("/api/segment/get/" + tag).body()).isEqualTo("1"); // block [1, 101) loaded
        assertThat(row(tag)).containsEntry("max_id", 101L);

        HttpResponse<String> changed = http.admin("PUT", "/api/admin/tags/" + tag + "/step", "{\"step\":1000}");

        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(json(changed).get("step").intValue()).isEqualTo(1000);
        assertThat(json(changed).get("maxId").stringValue()).isEqualTo("101");
        assertThat(row(tag)).containsEntry("step", 1000);
        // The 10 % mark of the current block loads the next one, now of the row's new step
        // (the dynamic step alone would have asked for 200).
        for (long expected = 2; expected <= 20; expected++) {
            assertThat(http.get("/api/segment/get/" + tag).body()).isEqualTo(Long.toString(expected));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> row(tag).get("max_id"), maxId -> maxId.equals(1101L));
        for (long expected = 21; expected <= 102; expected++) {
            assertThat(http.get("/api/segment/get/" + tag).body()).isEqualTo(Long.toString(expected));
        }
    }

    @Test
    void changingTheStepOfAnUnknownTagIs404AndBadStepsAre400() {
        HttpResponse<String> unknown = http.admin("PUT", "/api/admin/tags/" + newTagName("none") + "/step",
                "{\"step\":10}");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertProblem(unknown, "unknown-tag");

        HttpResponse<String> badPath = http.admin("PUT", "/api/admin/tags/a%20b/step", "{\"step\":10}");
        assertThat(badPath.statusCode()).isEqualTo(400);
        assertProblem(badPath, "invalid-key");

        String tag = newTagName("step-bad");
        assertThat(http.admin("POST", "/api/admin/tags", tagBody(tag, 100, "")).statusCode()).isEqualTo(201);
        for (String body : List.of("{\"step\":0}", "{\"step\":\"abc\"}", "{}", "{\"step\":10,\"tag\":\"x\"}", "{")) {
            HttpResponse<String> response = http.admin("PUT", "/api/admin/tags/" + tag + "/step", body);
            assertThat(response.statusCode()).as(body).isEqualTo(400);
            assertProblem(response, "invalid-request");
        }
        assertThat(row(tag)).containsEntry("step", 100);
    }

    @Test
    void refreshServesRowsInsertedBySqlAndDropsDeletedOnes() {
        String tag = DATABASE.newTag("admin-sql", 500, 10);
        assertThat(http.get("/api/segment/get/" + tag).statusCode()).isEqualTo(404);

        HttpResponse<String> refreshed = http.admin("POST", "/api/admin/refresh", null);

        assertThat(refreshed.statusCode()).isEqualTo(200);
        assertThat(json(refreshed).get("added").valueStream().map(JsonNode::stringValue)).contains(tag);
        assertThat(json(refreshed).get("removed").isArray()).isTrue();
        assertThat(http.get("/api/segment/get/" + tag).body()).isEqualTo("500");

        DATABASE.deleteTag(tag);
        HttpResponse<String> afterDelete = http.admin("POST", "/api/admin/refresh", null);
        assertThat(json(afterDelete).get("removed").valueStream().map(JsonNode::stringValue)).contains(tag);
        assertThat(http.get("/api/segment/get/" + tag).statusCode()).isEqualTo(404);
    }

    @Test
    void aCreatedTagIsListedInTheTagsView() {
        String tag = newTagName("listed");
        HttpResponse<String> created = http.admin("POST", "/api/admin/tags",
                tagBody(tag, 250, "\"maxId\":40,\"description\":\"listed by the view\""));
        assertThat(created.statusCode()).isEqualTo(201);

        JsonNode listed = json(http.get("/api/segment/tags")).valueStream()
                .filter(row -> row.get("tag").stringValue().equals(tag)).findFirst().orElseThrow();

        assertThat(listed.get("maxId").isString()).isTrue();
        assertThat(listed.get("maxId").stringValue()).isEqualTo("40");
        assertThat(listed.get("step").intValue()).isEqualTo(250);
        assertThat(listed.get("description").stringValue()).isEqualTo("listed by the view");
        assertThat(Instant.parse(listed.get("updateTime").stringValue()))
                .isBetween(Instant.now().minus(Duration.ofMinutes(10)), Instant.now().plus(Duration.ofMinutes(10)));
        String location = created.headers().firstValue("Location").orElseThrow();
        assertThat(json(http.get(location.substring(location.indexOf("/api/"))))).isEqualTo(listed);
        assertThat(json(created)).isEqualTo(listed);
    }

    private static String newTagName(String prefix) {
        return "admin-" + prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static void assertProblem(HttpResponse<String> response, String type) {
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                value -> assertThat(value).startsWith("application/problem+json"));
        assertThat(response.body()).contains("\"type\":\"urn:leaf:problem:" + type + "\"")
                .contains("\"detail\"").doesNotContain("Exception", "at org.");
    }

    /** The row as the database has it, or null. */
    private static Map<String, Object> row(String tag) {
        try (Connection connection = DATABASE.connect(); PreparedStatement select = connection.prepareStatement(
                "SELECT max_id, step, description FROM leaf_alloc WHERE biz_tag = ?")) {
            select.setString(1, tag);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    return null;
                }
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("max_id", rows.getLong("max_id"));
                row.put("step", rows.getInt("step"));
                row.put("description", rows.getString("description"));
                return row;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** How many of these tags have a row. */
    private static long rowCount(List<String> tags) {
        String placeholders = String.join(",", tags.stream().map(tag -> "?").toList());
        try (Connection connection = DATABASE.connect(); PreparedStatement count = connection.prepareStatement(
                "SELECT COUNT(*) FROM leaf_alloc WHERE biz_tag IN (" + placeholders + ")")) {
            for (int i = 0; i < tags.size(); i++) {
                count.setString(i + 1, tags.get(i));
            }
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
