package org.leafid.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.testing.TcpProxy;
import org.leafid.server.support.RunningServerTest;
import org.leafid.server.support.TestServerKeys;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Batches, decode, the cache view, the Prometheus scrape and readiness, through the real server. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OperationsHttpTest extends RunningServerTest {

    private static final int WORKER_ID = 9;
    private static final int MAX_BATCH = 1000;
    private static final TcpProxy PROXY = proxyToTheDatabase();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, () -> DATABASE.urlThrough(PROXY), "operations");
        registry.add("leaf.jdbc.connect-timeout", () -> "500ms");
        registry.add("leaf.snowflake.port", () -> "18083");
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
    void batchSizesOneTwoAndMaxAreServedOnBothEndpoints() {
        String tag = newServedTag("batch", 1, 5_000);
        for (String endpoint : List.of("/api/segment/get/" + tag, "/api/snowflake/get/k")) {
            for (int count : new int[] {1, 2, MAX_BATCH}) {
                HttpResponse<String> response = http.get(endpoint + "?count=" + count);
                assertThat(response.statusCode()).as(endpoint + " count " + count).isEqualTo(200);
                assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                        type -> assertThat(type).startsWith("text/plain"));
                long[] ids = response.body().lines().mapToLong(Long::parseLong).toArray();
                assertThat(ids).hasSize(count).doesNotHaveDuplicates().isSorted();
            }
        }
    }

    @Test
    void badCountsAre400ProblemsAndIssueNothing() {
        String tag = newServedTag("bad-count", 1, 100);
        long before = DATABASE.maxId(tag);
        for (String endpoint : List.of("/api/segment/get/" + tag, "/api/snowflake/get/k")) {
            for (String count : List.of(Integer.toString(MAX_BATCH + 1), "0", "-1", "abc", "1.5", "",
                    "99999999999999999999")) {
                HttpResponse<String> response = http.get(endpoint + "?count=" + count);
                assertThat(response.statusCode()).as(endpoint + " count '" + count + "'").isEqualTo(400);
                assertThat(response.body()).contains("urn:leaf:problem:invalid-count").contains("leaf.max-batch");
            }
        }
        assertThat(DATABASE.maxId(tag)).isEqualTo(before);
        assertThat(http.getId("/api/segment/get/" + tag)).isEqualTo(1);
    }

    @Test
    void jsonBatchIsAnArrayOfStrings() {
        String tag = newServedTag("json", 1, 100);

        HttpResponse<String> response = get("/api/segment/get/" + tag + "?count=3", "application/json");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        assertThat(response.body()).isEqualTo("[\"1\",\"2\",\"3\"]");
        assertThat(get("/api/snowflake/get/k?count=2", "application/json").body()).matches("\\[\"\\d+\",\"\\d+\"]");
    }

    @Test
    void segmentBatchSpansABlockSwitch() {
        String tag = newServedTag("span", 1, 10);
        http.getId("/api/segment/get/" + tag); // 1

        long[] ids = http.get("/api/segment/get/" + tag + "?count=25").body().lines().mapToLong(Long::parseLong)
                .toArray();

        long[] expected = new long[25];
        Arrays.setAll(expected, i -> i + 2L);
        assertThat(ids).containsExactly(expected);
    }

    @Test
    void decodeRoundTripsIssuedIds() {
        long[] ids = http.get("/api/snowflake/get/k?count=20").body().lines().mapToLong(Long::parseLong).toArray();
        for (long id : ids) {
            HttpResponse<String> response = http.get("/api/snowflake/decode/" + id);
            assertThat(response.statusCode()).isEqualTo(200);
            String body = response.body();
            assertThat(body).contains("\"id\":\"" + id + "\"").contains("\"workerId\":" + WORKER_ID);
            long timestamp = number(body, "timestamp");
            long sequence = number(body, "sequence");
            assertThat(timestamp).isCloseTo(System.currentTimeMillis(), Offset.offset(60_000L));
            assertThat(layout.compose(timestamp - layout.twepoch(), WORKER_ID, sequence)).isEqualTo(id);
            assertThat(body).contains("\"time\":\"" + Instant.ofEpochMilli(timestamp) + "\"");
        }
    }

    @Test
    void decodeRefusesWhatIsNoSnowflakeId() {
        for (String id : List.of("abc", "-1", "99999999999999999999", "1e5", "%20")) {
            HttpResponse<String> response = http.get("/api/snowflake/decode/" + id);
            assertThat(response.statusCode()).as(id).isEqualTo(400);
            assertThat(response.body()).contains("urn:leaf:problem:invalid-id");
        }
    }

    @Test
    void cacheViewShowsEachTagsBuffers() {
        String tag = newServedTag("cache", 1, 100);
        for (int i = 0; i < 12; i++) { // past 10 %: the next block loads
            http.getId("/api/segment/get/" + tag);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> allocator.generator(tag).view().nextReady());

        String body = http.get("/api/segment/cache").body();

        assertThat(body).contains("{\"tag\":\"" + tag + "\",\"initialized\":true,"
                + "\"current\":{\"start\":\"1\",\"end\":\"101\",\"size\":100,\"remaining\":88},"
                + "\"next\":{\"start\":\"101\"");
        assertThat(body).contains("\"nextReady\":true");
    }

    @Test
    void prometheusScrapeHasEveryLeafMeterWithSensibleValues() {
        String tag = newServedTag("metrics", 1, 100);
        for (int i = 0; i < 15; i++) {
            http.getId("/api/segment/get/" + tag);
        }
        http.get("/api/snowflake/get/k?count=7");
        await().atMost(Duration.ofSeconds(10)).until(() -> allocator.generator(tag).view().nextReady());

        String scrape = http.get("/actuator/prometheus").body();

        assertThat(value(scrape, "leaf_ids_issued_total{key=\"" + tag + "\",mode=\"segment\"}")).isEqualTo(15);
        assertThat(value(scrape, "leaf_ids_issued_total{key=\"all\",mode=\"snowflake\"}")).isGreaterThanOrEqualTo(7);
        // 85 left in the first block, plus the whole next one; its step doubled (the first lasted < 15 min).
        assertThat(value(scrape, "leaf_segment_remaining{tag=\"" + tag + "\"}")).isEqualTo(85 + 200);
        assertThat(value(scrape, "leaf_segment_step{tag=\"" + tag + "\"}")).isEqualTo(200);
        assertThat(value(scrape, "leaf_segment_load_seconds_count{outcome=\"success\",tag=\"" + tag + "\"}"))
                .isEqualTo(2);
        assertThat(value(scrape, "leaf_snowflake_worker_id")).isEqualTo(WORKER_ID);
        assertThat(value(scrape, "leaf_snowflake_clock_backward_total")).isZero();
        assertThat(value(scrape, "leaf_worker_heartbeat_age_seconds")).isBetween(0.0, 10.0);
        assertThat(value(scrape, "leaf_id_requests_seconds_count{mode=\"segment\"}")).isGreaterThanOrEqualTo(15);
        assertThat(scrape).contains("leaf_id_requests_seconds_bucket{mode=\"snowflake\"");
        // Where the server runs is not told to anonymous scrapers (issue 44): the disk meters' path is fixed.
        assertThat(scrape).contains("disk_free_bytes{path=\"working-directory\"}")
                .doesNotContain(System.getProperty("user.dir"));
    }

    @Test
    void readinessGoesDownWhileATagIsStarvedByTheDatabaseAndUpAfter() {
        String tag = newServedTag("ready", 1, 5);
        http.getId("/api/segment/get/" + tag);
        assertThat(http.get("/actuator/health/readiness").statusCode()).isEqualTo(200);

        PROXY.cut();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> http.get("/api/segment/get/" + tag).statusCode() == 503);
        HttpResponse<String> down = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> http.get("/actuator/health/readiness"), response -> response.statusCode() == 503);
        assertThat(down.body()).contains("DOWN").contains(tag);

        PROXY.restore();
        // No request needed: the refresher retries starved tags every second.
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> http.get("/actuator/health/readiness").statusCode() == 200);
        assertThat(http.get("/api/segment/get/" + tag).statusCode()).isEqualTo(200);
    }

    private HttpResponse<String> get(String path, String accept) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .header("Accept", accept).timeout(Duration.ofSeconds(15)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long number(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\":(\\d+)").matcher(json);
        assertThat(m.find()).as(field + " in " + json).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** The value of one series in a Prometheus text scrape. */
    private static double value(String scrape, String series) {
        return scrape.lines().filter(line -> line.startsWith(series + " ")).findFirst()
                .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim()))
                .orElseThrow(() -> new AssertionError("no series " + series + " in the scrape"));
    }
}
