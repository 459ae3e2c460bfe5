package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leafid.core.snowflake.SnowflakeId;
import org.leafid.testing.TcpProxy;
import org.leafid.server.fault.RawHttp;
import org.leafid.server.support.RunningServerTest;
import org.leafid.server.support.TestServerKeys;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The HTTP API through the real server on a random port, with {@code leaf_alloc} in the real
 * MySQL-protocol database reached through a proxy the test can cut.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class HttpApiTest extends RunningServerTest {

    private static final int WORKER_ID = 7;
    private static final TcpProxy PROXY = proxyToTheDatabase();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, () -> DATABASE.urlThrough(PROXY), "http");
        registry.add("leaf.jdbc.connect-timeout", () -> "500ms");
        registry.add("leaf.snowflake.port", () -> "18081");
        registry.add("leaf.snowflake.local.worker-id", () -> Integer.toString(WORKER_ID));
    }

    @AfterAll
    static void closeProxy() throws IOException {
        PROXY.close();
    }

    @BeforeEach
    void restoreTheProxy() {
        PROXY.restore();
    }

    @Test
    void segmentIdsArePlainTextAndIncreasing() {
        String tag = newServedTag("http-segment", 1, 50);

        HttpResponse<String> first = http.get("/api/segment/get/" + tag);

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/plain"));
        assertThat(first.body()).isEqualTo("1");
        long previous = 1;
        for (int i = 0; i < 120; i++) { // across a few blocks of 50
            long id = http.getId("/api/segment/get/" + tag);
            assertThat(id).isEqualTo(previous + 1);
            previous = id;
        }
    }

    @Test
    void snowflakeIdsCarryTheConfiguredWorkerId() {
        HttpResponse<String> response = http.get("/api/snowflake/get/any-key");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/plain"));
        long id = Long.parseLong(response.body());
        SnowflakeId decoded = layout.decode(id);
        assertThat(decoded.workerId()).isEqualTo(WORKER_ID);
        assertThat(decoded.timestampMillis()).isCloseTo(System.currentTimeMillis(), Offset.offset(60_000L));
        assertThat(http.getId("/api/snowflake/get/any-key")).isGreaterThan(id);
    }

    @Test
    void withoutAnyFormatAFormatIsA404NamingTheKeyToSet() {
        HttpResponse<String> response = http.get("/api/format/get/order");

        assertThat(response.statusCode()).isEqualTo(404);
        assertProblem(response, "unknown-format");
        assertThat(response.body()).contains("leaf.formats.order.pattern");
        assertThat(http.get("/api/format/decode/order/ORD1").statusCode()).isEqualTo(404);
    }

    @Test
    void malformedKeysAre400ProblemsOnBothEndpoints() {
        List<String> bad = List.of("a%20b", "x".repeat(129), "%C3%A9t%C3%A9", "semi%3Bcolon", "quote%27");
        for (String key : bad) {
            for (String endpoint : List.of("/api/segment/get/", "/api/snowflake/get/")) {
                HttpResponse<String> response = http.get(endpoint + key);
                assertThat(response.statusCode()).as(endpoint + key).isEqualTo(400);
                assertProblem(response, "invalid-key");
            }
        }
    }

    @Test
    void malformedAcceptIs400ProblemBeforeAnyIdIsTaken() {
        String tag = newServedTag("http-accept", 1, 1000);
        assertThat(http.getId("/api/segment/get/" + tag)).isEqualTo(1);
        String broken = ";;;/\"x";

        for (String path : List.of("/api/segment/get/" + tag + "?count=5", "/api/snowflake/get/k?count=5",
                "/api/segment/get/" + tag, "/api/nothing-here")) {
            HttpResponse<String> response = http.send("GET", path, "Accept", broken);
            assertThat(response.statusCode()).as(path).isEqualTo(400);
            assertProblem(response, "invalid-accept");
        }

        assertThat(http.getId("/api/segment/get/" + tag)).as("no segment ID was lost").isEqualTo(2);
        HttpResponse<String> json = http.send("GET", "/api/segment/get/" + tag + "?count=2", "Accept",
                "application/json");
        assertThat(json.body()).isEqualTo("[\"3\",\"4\"]");
    }

    @Test
    void countGivenTwiceIs400AndTakesNoId() {
        String tag = newServedTag("http-count-twice", 1, 1000);

        for (String path : List.of("/api/segment/get/" + tag + "?count=1&count=2", "/api/snowflake/get/k?count=1&count=2")) {
            HttpResponse<String> response = http.get(path);
            assertThat(response.statusCode()).as(path).isEqualTo(400);
            assertProblem(response, "invalid-count");
        }

        assertThat(http.getId("/api/segment/get/" + tag)).isEqualTo(1);
    }

    @Test
    void errorsTomcatAnswersItselfAreProblemsToo() {
        HttpResponse<String> trace = http.send("TRACE", "/api/segment/get/any");

        assertThat(trace.statusCode()).isEqualTo(405);
        assertProblem(trace, "method-not-allowed");
        assertThat(trace.body()).doesNotContain("timestamp", "path");

        for (String refused : List.of("/api/segment/get/a%00b", "/api/segment/get/%2e%2e%2f%2e%2e%2fetc",
                "/api/segment/get/..%5c..%5cetc")) {
            HttpResponse<String> response = http.get(refused);
            assertThat(response.statusCode()).as(refused).isEqualTo(400);
            assertProblem(response, "bad-request");
        }

        HttpResponse<String> direct = http.get("/error");
        assertThat(direct.statusCode()).isEqualTo(404);
        assertProblem(direct, "not-found");
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void badPercentEncodingInTheQueryIsA400WithoutAStackTraceAndIssuesNothing(CapturedOutput output) {
        String tag = newServedTag("http-bad-query", 1, 1000);
        int logStart = output.length();

        // The fast path (segment, snowflake) and Spring MVC (actuator) both read the query's parameters.
        for (String target : List.of("/api/segment/get/" + tag + "?count=%zz", "/api/segment/get/" + tag
                + "?x=%ff%fe&count=2", "/api/snowflake/get/k?count=%ff", "/actuator/health?x=%ff")) {
            RawHttp.Response response = RawHttp.send(port, "GET", target, List.of(), null);
            assertThat(response.status()).as(target).isEqualTo(400);
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.problemType()).as(target).isEqualTo("urn:leaf:problem:bad-request");
            assertThat(response.body()).contains("percent-encoded").doesNotContain("Exception", "%zz");
        }

        assertThat(output.toString().substring(logStart)).doesNotContain("InvalidParameterException", "\tat ",
                "ERROR");
        assertThat(http.getId("/api/segment/get/" + tag)).as("no ID was taken by a refused request").isEqualTo(1);
    }

    @Test
    void unknownTagIs404Problem() {
        HttpResponse<String> response = http.get("/api/segment/get/never-inserted-" + System.nanoTime());

        assertThat(response.statusCode()).isEqualTo(404);
        assertProblem(response, "unknown-tag");
        assertThat(response.body()).contains("leaf_alloc");
    }

    @Test
    void unknownPathIs404ProblemWithoutInternals() {
        HttpResponse<String> response = http.get("/api/nothing-here");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(response.body()).contains("\"type\":\"urn:leaf:problem:not-found\"")
                .doesNotContain("Exception", "at org.");
    }

    @Test
    void exhaustedTagIs503ProblemAndTheRowIsUntouched() {
        String tag = newServedTag("http-exhausted", Long.MAX_VALUE - 3, 10);

        HttpResponse<String> response = http.get("/api/segment/get/" + tag);

        assertThat(response.statusCode()).isEqualTo(503);
        assertProblem(response, "tag-exhausted");
        assertThat(DATABASE.maxId(tag)).isEqualTo(Long.MAX_VALUE - 3);
    }

    @Test
    void databaseOutageServesFromBuffersThen503sThenRecovers() {
        String tag = newServedTag("http-outage", 1, 5);
        List<Long> issued = new ArrayList<>();
        issued.add(http.getId("/api/segment/get/" + tag));

        PROXY.cut();
        HttpResponse<String> refused = null;
        for (int i = 0; i < 50 && refused == null; i++) {
            HttpResponse<String> response = http.get("/api/segment/get/" + tag);
            if (response.statusCode() == 200) {
                issued.add(Long.parseLong(response.body()));
            } else {
                refused = response;
            }
        }
        assertThat(refused).as("a 503 once the buffered blocks are spent").isNotNull();
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(refused.body()).containsAnyOf("urn:leaf:problem:store-unavailable",
                "urn:leaf:problem:segment-not-ready");
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(issued).as("the buffered IDs were served during the outage").hasSizeGreaterThan(1);

        PROXY.restore();
        // The pool reconnects in real time: a bounded wait, no clock under test here.
        HttpResponse<String> recovered = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> http.get("/api/segment/get/" + tag), response -> response.statusCode() == 200);
        issued.add(Long.parseLong(recovered.body()));
        assertThat(issued).doesNotHaveDuplicates().isSorted();
    }

    private static void assertProblem(HttpResponse<String> response, String type) {
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                value -> assertThat(value).startsWith("application/problem+json"));
        assertThat(response.body()).contains("\"type\":\"urn:leaf:problem:" + type + "\"")
                .contains("\"detail\"").doesNotContain("Exception", "at org.");
    }
}
