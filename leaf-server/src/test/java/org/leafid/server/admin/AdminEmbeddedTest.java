package org.leafid.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.leafid.server.admin.AdminHttp.json;
import static org.leafid.server.admin.AdminHttp.tagBody;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.LeafServerApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The admin API on the embedded default (H2 in MySQL mode, no {@code leaf.jdbc.url}), where a
 * duplicate tag is SQLState 23505 rather than MySQL's 23000/1062; and the start-up rules of
 * {@code leaf.admin.*}.
 */
class AdminEmbeddedTest {

    private static final String TOKEN = "embedded-admin-token-0123456789-abcdefghij";

    @TempDir
    Path dataDir;

    @Test
    void createsATagOnH2AndAnswers409ForADuplicate() {
        try (ConfigurableApplicationContext server = start("--leaf.admin.token=" + TOKEN)) {
            AdminHttp http = http(server);

            HttpResponse<String> created = http.admin("POST", "/api/admin/tags",
                    tagBody("embedded-order", 100, "\"maxId\":42,\"description\":\"on h2\""));
            HttpResponse<String> duplicate = http.admin("POST", "/api/admin/tags", tagBody("embedded-order", 5, ""));

            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            assertThat(http.get("/api/segment/get/embedded-order").body()).isEqualTo("42");
            assertThat(duplicate.statusCode()).as(duplicate.body()).isEqualTo(409);
            assertThat(duplicate.body()).contains("\"type\":\"urn:leaf:problem:tag-exists\"");
            assertListed(http, "embedded-order", "142", 100, "on h2");

            HttpResponse<String> step = http.admin("PUT", "/api/admin/tags/embedded-order/step", "{\"step\":300}");
            assertThat(step.statusCode()).isEqualTo(200);
            assertThat(json(step).get("step").intValue()).isEqualTo(300);
        }
    }

    @Test
    void withSegmentModeOffTheAdminPathsStillCheckTheTokenThenSaySo() {
        try (ConfigurableApplicationContext server = start("--leaf.admin.token=" + TOKEN,
                "--leaf.segment.enable=false")) {
            AdminHttp http = http(server);

            HttpResponse<String> anonymous = http.send("POST", "/api/admin/tags", null, tagBody("x", 10, ""));
            HttpResponse<String> admin = http.admin("POST", "/api/admin/tags", tagBody("x", 10, ""));
            HttpResponse<String> view = http.get("/api/segment/tags");

            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(admin.statusCode()).isEqualTo(404);
            assertThat(admin.body()).contains("\"type\":\"urn:leaf:problem:mode-disabled\"");
            assertThat(view.statusCode()).isEqualTo(404);
            assertThat(view.body()).contains("\"type\":\"urn:leaf:problem:mode-disabled\"");
        }
    }

    @Test
    void aWeakTokenStopsTheStartNamingTheKeyButNotTheValue() {
        for (String weak : List.of("short-secret", "has a space in the middle")) {
            assertThatThrownBy(() -> start("--leaf.admin.token=" + weak))
                    .hasStackTraceContaining("leaf.admin.token")
                    .satisfies(failure -> assertThat(stackTrace(failure)).doesNotContain(weak));
        }
    }

    /** Starts the server as {@code java -jar} would, on a random port, with this test's data dir. */
    private ConfigurableApplicationContext start(String... extraArguments) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--leaf.snowflake.port=18092",
                "--leaf.data-dir=" + dataDir));
        arguments.addAll(List.of(extraArguments));
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments.toArray(String[]::new));
    }

    private static AdminHttp http(ConfigurableApplicationContext server) {
        return new AdminHttp(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class), TOKEN);
    }

    private static String stackTrace(Throwable failure) {
        StringWriter text = new StringWriter();
        failure.printStackTrace(new PrintWriter(text));
        return text.toString();
    }

    private static void assertListed(AdminHttp http, String tag, String maxId, int step, String description) {
        JsonNode row = json(http.get("/api/segment/tags")).valueStream()
                .filter(listed -> listed.get("tag").stringValue().equals(tag)).findFirst().orElseThrow();
        assertThat(row.get("maxId").stringValue()).isEqualTo(maxId);
        assertThat(row.get("step").intValue()).isEqualTo(step);
        assertThat(row.get("description").stringValue()).isEqualTo(description);
    }
}
