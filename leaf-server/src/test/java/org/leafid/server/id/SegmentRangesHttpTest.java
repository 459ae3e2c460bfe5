package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.leafid.server.support.RunningServerTest;
import org.leafid.server.support.TestServerKeys;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A segment batch asked for as {@code application/vnd.leaf.ranges+json}: runs of consecutive IDs that
 * add up to the count, through the real server and the test database; the same IDs as the other
 * answers would have held, never one twice, and the other modes' answers unchanged.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SegmentRangesHttpTest extends RunningServerTest {

    private static final String RANGES = "application/vnd.leaf.ranges+json";
    private final JsonMapper json = JsonMapper.builder().build();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, "ranges");
        registry.add("leaf.snowflake.port", () -> "18125");
        registry.add("leaf.max-batch", () -> "100000");
        registry.add("leaf.segment.max-range-batch", () -> "300000");
    }

    @Test
    void aBatchAsRangesIsRunsThatAddUpToTheCount() {
        // Blocks of 50 from 1: a batch of 120 from a fresh tag spans three blocks, which follow each other.
        String tag = newServedTag("ranges-runs", 1, 50);

        HttpResponse<String> answer = http.send("GET", "/api/segment/get/" + tag + "?count=120", "Accept", RANGES);

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith(RANGES));
        long[] ids = idsOf(answer.body(), 120);
        assertThat(ids[0]).isEqualTo(1);
        assertThat(ids[119]).isEqualTo(120);
        assertThat(json.readTree(answer.body()).get("ranges")).as("adjacent blocks are one run").hasSize(1);
        assertThat(http.get("/api/segment/get/" + tag + "?count=3").body()).isEqualTo("121\n122\n123\n");
    }

    @Test
    void aBatchAsRangesMayReachItsOwnLimitWhileLinesKeepMaxBatchAndARefusalIssuesNothing() {
        String tag = newServedTag("ranges-large", 1, 100_000);

        HttpResponse<String> large = http.send("GET", "/api/segment/get/" + tag + "?count=250000", "Accept", RANGES);
        HttpResponse<String> asLines = http.get("/api/segment/get/" + tag + "?count=250000");
        HttpResponse<String> tooLarge = http.send("GET", "/api/segment/get/" + tag + "?count=300001",
                "Accept", RANGES);

        assertThat(large.statusCode()).isEqualTo(200);
        long[] ids = idsOf(large.body(), 250_000);
        assertThat(ids[0]).isEqualTo(1);
        assertThat(ids[249_999]).as("three blocks of 100,000, one after the other").isEqualTo(250_000);
        assertThat(large.body().length()).as("a few runs, not a quarter of a million lines").isLessThan(200);
        assertThat(asLines.statusCode()).isEqualTo(400);
        assertThat(asLines.body()).contains("invalid-count", "1 to 100000 (leaf.max-batch)");
        assertThat(tooLarge.statusCode()).isEqualTo(400);
        assertThat(tooLarge.body()).contains("invalid-count", "1 to 300000 (leaf.segment.max-range-batch)");
        assertThat(http.get("/api/segment/get/" + tag + "?count=3").body()).as("the refusals issued nothing")
                .isEqualTo("250001\n250002\n250003\n");
    }

    @Test
    void rangesTextAndSingleIdsTakenAtOnceNeverRepeat() throws Exception {
        String tag = newServedTag("ranges-mixed", 1, 100);
        ExecutorService callers = Executors.newFixedThreadPool(6);
        List<long[]> taken = Collections.synchronizedList(new ArrayList<>());
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                int thread = t;
                workers.add(callers.submit(() -> {
                    for (int round = 0; round < 60; round++) {
                        int count = 1 + (round * 53 + thread * 29) % 400;
                        switch ((round + thread) % 3) {
                            case 0 -> taken.add(idsOfEither(http.send("GET", "/api/segment/get/" + tag + "?count="
                                    + count, "Accept", RANGES), count));
                            case 1 -> taken.add(Arrays.stream(http.get("/api/segment/get/" + tag + "?count=" + count)
                                    .body().split("\n")).mapToLong(Long::parseLong).toArray());
                            default -> taken.add(new long[] {http.getId("/api/segment/get/" + tag)});
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(60, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
        }
        long[] all = taken.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        for (int i = 1; i < all.length; i++) {
            assertThat(all[i]).as("ID %d issued twice", all[i]).isNotEqualTo(all[i - 1]);
        }
        assertThat(all).hasSizeGreaterThan(6 * 60);
    }

    @Test
    void rangesAreGivenOnlyWhereAskedForAndOnlyBySegment() {
        String tag = newServedTag("ranges-asked", 1, 1000);

        HttpResponse<String> preferText = http.send("GET", "/api/segment/get/" + tag + "?count=2",
                "Accept", "text/plain, " + RANGES + ";q=0.5");
        HttpResponse<String> single = http.send("GET", "/api/segment/get/" + tag, "Accept", RANGES);
        HttpResponse<String> snowflake = http.send("GET", "/api/snowflake/get/any?count=2", "Accept", RANGES);

        assertThat(preferText.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith("text/plain"));
        assertThat(preferText.body()).isEqualTo("1\n2\n");
        assertThat(single.body()).as("one ID is Leaf's plain text").isEqualTo("3");
        assertThat(snowflake.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith("text/plain"));
        assertThat(snowflake.body().split("\n")).hasSize(2);
    }

    /**
     * The IDs of an answer to a request for ranges: runs, or one ID per line where runs would not be
     * shorter (a batch of fewer than four IDs).
     */
    private long[] idsOfEither(HttpResponse<String> answer, int count) {
        assertThat(answer.statusCode()).isEqualTo(200);
        String type = answer.headers().firstValue("Content-Type").orElse("");
        if (type.startsWith("text/plain")) {
            assertThat(count).as("lines for a request of ranges").isLessThan(4);
            return Arrays.stream(answer.body().split("\n")).mapToLong(Long::parseLong).toArray();
        }
        assertThat(type).startsWith(RANGES);
        return idsOf(answer.body(), count);
    }

    /** The IDs an answer as ranges stands for, checked: the count, runs in order, adding up. */
    private long[] idsOf(String body, int count) {
        JsonNode answer = json.readTree(body);
        assertThat(answer.get("count").asInt()).isEqualTo(count);
        List<Long> ids = new ArrayList<>();
        for (JsonNode run : answer.get("ranges")) {
            long first = Long.parseLong(run.get(0).asString());
            long last = Long.parseLong(run.get(1).asString());
            assertThat(last).isGreaterThanOrEqualTo(first);
            if (!ids.isEmpty()) {
                assertThat(first).as("runs in order and apart").isGreaterThan(ids.get(ids.size() - 1) + 1);
            }
            for (long id = first; id <= last; id++) {
                ids.add(id);
            }
        }
        assertThat(ids).hasSize(count);
        return ids.stream().mapToLong(Long::longValue).toArray();
    }
}
