package org.leafid.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.leafid.server.admin.AdminHttp.json;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.support.TestServerKeys;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/** {@code GET /api/segment/tags}: the {@code leaf_alloc} rows, as operators wrote them, through the real server. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TagsViewTest {

    private static final TestDatabase DATABASE = TestDatabase.get();

    @LocalServerPort
    int port;

    private AdminHttp http;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, "tags-view");
        registry.add("leaf.snowflake.port", () -> "18085");
    }

    @BeforeEach
    void client() {
        http = new AdminHttp(port, "unused-in-this-test");
    }

    @Test
    void rowsInsertedBySqlAreListedSortedByTagWithEveryField() {
        String prefix = "tags-view-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        insert(prefix + "c", Long.MAX_VALUE - 10, 7, null);
        insert(prefix + "a", 1, 2000, "first");
        insert(prefix + "b", 123_456, 50, "second");

        HttpResponse<String> response = http.get("/api/segment/tags");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        List<JsonNode> mine = json(response).valueStream()
                .filter(row -> row.get("tag").stringValue().startsWith(prefix)).toList();
        assertThat(mine).extracting(row -> row.get("tag").stringValue())
                .containsExactly(prefix + "a", prefix + "b", prefix + "c");
        JsonNode c = mine.get(2);
        assertThat(c.propertyNames()).containsExactly("tag", "maxId", "step", "description", "updateTime");
        // maxId is a string, so 2^63 - 11 reaches a JavaScript client digit for digit.
        assertThat(c.get("maxId").isString()).isTrue();
        assertThat(c.get("maxId").stringValue()).isEqualTo("9223372036854775797");
        assertThat(c.get("step").isInt()).isTrue();
        assertThat(c.get("step").intValue()).isEqualTo(7);
        assertThat(c.get("description").isNull()).isTrue();
        assertThat(mine.get(0).get("description").stringValue()).isEqualTo("first");
        assertThat(mine.get(1).get("maxId").stringValue()).isEqualTo("123456");
        String updateTime = c.get("updateTime").stringValue();
        assertThat(updateTime).endsWith("Z");
        assertThat(Instant.parse(updateTime))
                .isBetween(Instant.now().minus(Duration.ofMinutes(10)), Instant.now().plus(Duration.ofMinutes(10)));
    }

    @Test
    void oneTagHasItsOwnPath() {
        String tag = DATABASE.newTag("tags-view-one", 99, 10);

        HttpResponse<String> one = http.get("/api/segment/tags/" + tag);

        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(json(one).get("tag").stringValue()).isEqualTo(tag);
        assertThat(json(one).get("maxId").stringValue()).isEqualTo("99");
        assertThat(json(one).get("description").stringValue()).isEqualTo("test");
    }

    @Test
    void anUnknownTagIs404AndAMalformedOne400() {
        HttpResponse<String> unknown = http.get("/api/segment/tags/tags-view-never-" + UUID.randomUUID());
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("\"type\":\"urn:leaf:problem:unknown-tag\"");

        HttpResponse<String> malformed = http.get("/api/segment/tags/a%20b");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(malformed.body()).contains("\"type\":\"urn:leaf:problem:invalid-key\"");
    }

    private static void insert(String tag, long maxId, int step, String description) {
        DATABASE.update("INSERT INTO leaf_alloc(biz_tag, max_id, step, description) VALUES (?, ?, ?, ?)",
                tag, maxId, step, description);
    }
}
