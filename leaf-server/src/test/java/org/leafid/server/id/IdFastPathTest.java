package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The fast path on (the default): which requests it answers without Spring MVC, that its answers
 * and meters are the controllers', and that many clients at once get no ID twice through it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = {LeafServerApplication.class, IdGetEndpointsContract.HandlerCount.class})
class IdFastPathTest extends IdGetEndpointsContract {

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        serverOnTheTestDatabase(registry, 18_091);
    }

    @Test
    void ordinaryGetsNeverReachSpringMvc() {
        String tag = newServedTag("fast-taken", 1, 1000);
        int before = handled.get();

        http.getId("/api/segment/get/" + tag);
        http.get("/api/segment/get/" + tag + "?count=5");
        http.getId("/api/snowflake/get/k");
        http.get("/api/segment/get/never-inserted-" + System.nanoTime());

        assertThat(handled.get()).as("requests a Spring MVC handler saw").isEqualTo(before);

        // Left to Spring MVC: HEAD, an escaped (here invalid) key.
        assertThat(http.send("HEAD", "/api/snowflake/get/k").statusCode()).isEqualTo(200);
        assertThat(http.get("/api/segment/get/a%20b").statusCode()).isEqualTo(400);
        assertThat(handled.get()).isEqualTo(before + 2);
    }

    @Test
    void answersAsTheControllersDoAndLosesNoId() {
        answersAsTheControllersDo();
    }

    @Test
    void requestsAreCountedAndTimedAsBefore() {
        String tag = newServedTag("fast-meters", 1, 1000);
        double ok = requests("/api/segment/get/{tag}", "200");
        double notFound = requests("/api/segment/get/{tag}", "404");
        double snowflakeOk = requests("/api/snowflake/get/{key}", "200");
        double segmentTimed = idRequests("segment");
        double snowflakeTimed = idRequests("snowflake");

        http.getId("/api/segment/get/" + tag);
        http.get("/api/segment/get/" + tag + "?count=10");
        http.get("/api/segment/get/never-inserted-" + System.nanoTime());
        http.getId("/api/snowflake/get/k");

        // The server records after the answer is written, so the client can read it first: a bounded wait.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(requests("/api/segment/get/{tag}", "200")).isEqualTo(ok + 2);
            assertThat(requests("/api/segment/get/{tag}", "404")).isEqualTo(notFound + 1);
            assertThat(requests("/api/snowflake/get/{key}", "200")).isEqualTo(snowflakeOk + 1);
            assertThat(idRequests("segment")).isEqualTo(segmentTimed + 3);
            assertThat(idRequests("snowflake")).isEqualTo(snowflakeTimed + 1);
        });
        // The labels of Boot's own observation, so the series are the ones dashboards already query.
        assertThat(registry.find("http.server.requests").tags("uri", "/api/segment/get/{tag}", "status", "404",
                "outcome", "CLIENT_ERROR", "exception", "none", "error", "none", "method", "GET").timer())
                .isNotNull();
    }

    @Test
    void manyClientsAtOnceGetNoIdTwice() throws Exception {
        String tag = newServedTag("fast-concurrent", 1, 500); // several block loads under load
        int threads = 8;
        int perThread = 1_500;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String path = t % 2 == 0 ? "/api/segment/get/" + tag : "/api/snowflake/get/k";
                results.add(pool.submit(() -> {
                    Http own = new Http(port);
                    List<Long> ids = new ArrayList<>(perThread);
                    for (int i = 0; i < perThread; i++) {
                        ids.add(own.getId(path));
                    }
                    return ids;
                }));
            }
            Set<Long> segmentIds = new HashSet<>();
            Set<Long> snowflakeIds = new HashSet<>();
            for (int t = 0; t < threads; t++) {
                List<Long> ids = results.get(t).get(120, TimeUnit.SECONDS);
                assertThat(ids).as("one client's IDs increase").isSorted();
                (t % 2 == 0 ? segmentIds : snowflakeIds).addAll(ids);
            }
            int each = threads / 2 * perThread;
            assertThat(segmentIds).as("distinct segment IDs").hasSize(each)
                    .allMatch(id -> id >= 1 && id <= each, "none skipped: 1 to " + each);
            assertThat(snowflakeIds).as("distinct snowflake IDs").hasSize(each);
        } finally {
            pool.shutdownNow();
        }
    }
}
