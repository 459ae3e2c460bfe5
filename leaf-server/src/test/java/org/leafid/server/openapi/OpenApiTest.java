package org.leafid.server.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.problem.ProblemType;
import org.leafid.server.support.TestServerKeys;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The OpenAPI description through the real server with every controller on (segment, snowflake,
 * shard mode, the admin API): each operation a Leaf controller maps (path and method) is in
 * {@code /v3/api-docs} and each described one is mapped, with the problem+json answers, and the
 * status page links the description.
 */
// As a property of the test, not a dynamic one: the switch is read before those are added.
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "leaf.http.api-docs=on")
class OpenApiTest {

    private static final TestDatabase DATABASE = TestDatabase.get();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, "openapi");
        registry.add("leaf.snowflake.port", () -> "18093");
        registry.add("leaf.shard.enable", () -> "true");
        registry.add("leaf.admin.token", () -> "openapi-admin-token-0123456789-abcdefghij");
        registry.add("leaf.formats.openapi.pattern", () -> "O{seq:6}{check}"); // the formats' endpoints exist
    }

    @Test
    void everyControllerPathIsDescribedWithItsProblemAnswers() throws Exception {
        HttpResponse<String> docs = get("/v3/api-docs");
        assertThat(docs.statusCode()).isEqualTo(200);
        JsonNode description = JSON.readTree(docs.body());
        Set<String> described = new TreeSet<>();
        description.get("paths").properties().forEach(path -> path.getValue().propertyNames()
                .forEach(method -> described.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey())));

        Set<String> mapped = new TreeSet<>();
        mappings.getHandlerMethods().forEach((info, method) -> {
            if (method.getBeanType().getPackageName().startsWith("org.leafid.server")) {
                for (String pattern : info.getPatternValues()) {
                    info.getMethodsCondition().getMethods().forEach(verb -> mapped.add(verb + " " + pattern));
                }
            }
        });
        assertThat(mapped).contains("GET /api/segment/get/{tag}", "GET /api/snowflake/get/{key}",
                "GET /api/shard/get/{appId}", "POST /api/admin/tags", "POST /api/admin/apps", "GET /v3/api-docs");
        // Spring Boot's error path (ProblemErrorController) is where failures are forwarded, not an endpoint;
        // the description does not describe itself.
        mapped.removeIf(operation -> operation.endsWith(" /error") || operation.endsWith(" /v3/api-docs"));
        // A mode's catch-all (/api/segment/** …) answers 404 mode-disabled for paths that are no endpoint: it is
        // described as a problem type of every operation, not as a path, which OpenAPI cannot template.
        mapped.removeIf(operation -> operation.endsWith("/**"));
        assertThat(described).allSatisfy(operation -> assertThat(operation).doesNotContain("*"));
        // /api/admin/** answers only with segment mode off (AdminSegmentDisabledController), not here.
        assertThat(described).containsExactlyInAnyOrderElementsOf(mapped);

        JsonNode segmentGet = description.get("paths").get("/api/segment/get/{tag}").get("get").get("responses");
        assertThat(segmentGet.has("200")).as(segmentGet.toString()).isTrue();
        assertThat(segmentGet.at("/404/description").asString()).contains("urn:leaf:problem:unknown-tag");
        assertThat(segmentGet.at("/503/content").has("application/problem+json")).isTrue();
        assertThat(description.at("/components/schemas/Problem/properties").has("type")).isTrue();
    }

    /**
     * The description as the documentation site links it (docs/openapi.json): written to
     * target/reports/openapi.json on every run, without its {@code servers} (this test's random
     * port), and the published copy must be the same, so a change of the API that leaves the site's
     * copy behind fails here. ops/publish-test-reports.sh publishes the new one.
     */
    @Test
    void theSitesCopyOfTheDescriptionIsTheServedOne() throws Exception {
        tools.jackson.databind.node.ObjectNode description =
                (tools.jackson.databind.node.ObjectNode) JSON.readTree(get("/v3/api-docs").body());
        description.remove("servers");
        String served = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(description) + "\n";
        java.nio.file.Files.writeString(org.leafid.server.support.TestReports.file("openapi.json"), served);
        java.nio.file.Path published = java.nio.file.Path.of("../docs/openapi.json");
        assertThat(java.nio.file.Files.exists(published) ? java.nio.file.Files.readString(published) : "")
                .as("docs/openapi.json is the served description: run ops/publish-test-reports.sh after this test")
                .isEqualTo(served);
    }

    /** The types come from {@link ProblemType}, which every handler answers from (ProblemTypeTest). */
    @Test
    void everyProblemTypeTheServerSendsIsDescribed() throws Exception {
        JsonNode description = JSON.readTree(get("/v3/api-docs").body());
        String types = description.at("/info/description").asString();

        for (ProblemType type : ProblemType.values()) {
            assertThat(types).as(type.name()).contains("| `" + type.uri() + "` | " + type.status().value() + " | "
                    + type.meaning() + " |");
        }
        assertThat(types).contains("a type named after its status");
        JsonNode segmentGet = description.get("paths").get("/api/segment/get/{tag}").get("get").get("responses");
        assertThat(segmentGet.at("/400/description").asString()).contains("urn:leaf:problem:invalid-accept",
                "urn:leaf:problem:bad-request");
        assertThat(segmentGet.at("/404/description").asString()).contains("urn:leaf:problem:not-found");
    }

    @Test
    void theAdminBodiesAndTheGetParametersAreDescribed() throws Exception {
        JsonNode description = JSON.readTree(get("/v3/api-docs").body());
        assertThat(description.at("/info/version").asString()).isNotBlank();
        assertThat(description.at("/components/schemas/NewTag/required").toString()).contains("tag", "step");
        assertThat(description.at("/components/schemas/NewApp/properties").propertyNames()).containsExactly(
                "appId", "appName", "step", "maxLimitId", "description");
        assertThat(description.at("/paths/~1api~1shard~1get~1{appId}/get/parameters").toString())
                .contains("\"gatePass\"", "\"count\"");
        assertThat(description.at("/paths/~1api~1admin~1apps/post/security").toString()).contains("adminToken");
    }

    /** Each described success is what the endpoint answers, and what it answers is described: creations are 201. */
    @Test
    void theDescribedSuccessesAreTheAnswersAndNoMediaTypeIsAWildcard() throws Exception {
        JsonNode description = JSON.readTree(get("/v3/api-docs").body());
        assertThat(description.toString()).doesNotContain("\"*/*\"");
        String token = "openapi-admin-token-0123456789-abcdefghij";
        String tag = "openapi-created-" + System.nanoTime();
        Map<String, HttpResponse<String>> answers = new LinkedHashMap<>();
        answers.put("post /api/admin/tags", send("POST", "/api/admin/tags", token,
                "{\"tag\":\"" + tag + "\",\"step\":10}"));
        answers.put("put /api/admin/tags/{tag}/step", send("PUT", "/api/admin/tags/" + tag + "/step", token,
                "{\"step\":20}"));
        int app = 200 + (int) (System.nanoTime() % 50);
        DATABASE.forgetApps(app);
        answers.put("post /api/admin/apps", send("POST", "/api/admin/apps", token,
                "{\"appId\":" + app + ",\"appName\":\"openapi\"}"));
        answers.put("post /api/admin/refresh", send("POST", "/api/admin/refresh", token, ""));
        answers.put("get /api/segment/cache", get("/api/segment/cache"));
        answers.put("get /api/shard/apps", get("/api/shard/apps"));
        answers.put("get /", get("/"));

        answers.forEach((operation, answer) -> {
            String[] parts = operation.split(" ", 2);
            JsonNode responses = description.get("paths").get(parts[1]).get(parts[0]).get("responses");
            String status = Integer.toString(answer.statusCode());
            assertThat(answer.statusCode()).as(operation + ": " + answer.body()).isBetween(200, 299);
            assertThat(responses.has(status)).as(operation + " answers " + status + ", described " + responses)
                    .isTrue();
            responses.propertyNames().stream().filter(code -> code.startsWith("2")).forEach(code ->
                    assertThat(code).as(operation + " is described with " + code).isEqualTo(status));
        });
        DATABASE.forgetApps(app);
    }

    private HttpResponse<String> send(String method, String path, String token, String body)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theStatusPageLinksTheDescription() throws Exception {
        assertThat(get("/").body()).contains("<a id=\"api-docs\" href=\"/v3/api-docs\">");
        assertThat(get("/v3/api-docs").headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
