package org.leafid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Grafana dashboard ({@code ops/grafana/leaf-dashboard.json}) and the alert rules of the
 * server ({@code ops/prometheus/leaf-alerts.yml}, all but leaf-client's {@code leaf_client_*}) may
 * only query meters the server exports, and they must be there from the start: a panel or rule
 * over a series that appears only with the first event (a failed load, a 5xx) shows nothing
 * rather than 0 until then.
 */
class DashboardMetricsTest {

    private static final Pattern METRIC = Pattern.compile("\\b(leaf_[a-z0-9_]+|jvm_[a-z0-9_]+|http_[a-z0-9_]+)");
    private static final String SAMPLE_TAG = "leaf-segment-test";

    @TempDir
    Path dataDir;

    @Test
    void everyMetricTheDashboardQueriesIsExportedFromTheStartAndErrorsAreCounted() throws IOException {
        Set<String> queried = metricsTheDashboardQueries();
        assertThat(queried).as("metrics named by the dashboard").hasSizeGreaterThanOrEqualTo(8)
                .contains("leaf_http_responses_total");
        Set<String> alerted = metricsTheServerAlertsQuery();
        assertThat(alerted).as("metrics named by the server's alert rules").hasSizeGreaterThanOrEqualTo(7)
                .contains("leaf_numbers_moved_back_total", "leaf_shard_headroom");
        queried.addAll(alerted);

        try (ConfigurableApplicationContext server = new SpringApplicationBuilder(LeafServerApplication.class)
                // The Redis buffer, on the tests' Redis (127.0.0.1:6379), for its panels; no ID of
                // shard mode is asked for, so no list is made.
                .run("--server.port=0", "--leaf.snowflake.port=18096", "--leaf.data-dir=" + dataDir,
                        "--leaf.shard.buffer=redis")) {
            Http http = new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));

            // 1. Right after the start, before any ID or error: every series there, the event counts at 0.
            String atStart = http.get("/actuator/prometheus").body();
            for (String metric : queried) {
                assertThat(atStart).as("scrape at start has %s", metric).containsPattern("(?m)^" + metric + "[{ ]");
            }
            assertSeries(atStart, "leaf_segment_load_seconds_count{outcome=\"failure\",tag=\"" + SAMPLE_TAG + "\"}", 0);
            assertSeries(atStart, "leaf_segment_load_seconds_count{outcome=\"success\",tag=\"" + SAMPLE_TAG + "\"}", 0);
            assertSeries(atStart, "leaf_snowflake_clock_backward_total", 0);
            assertSeries(atStart, "leaf_http_responses_total{status=\"4xx\"}", 0);
            assertSeries(atStart, "leaf_http_responses_total{status=\"5xx\"}", 0);

            // 2. Traffic: past 10 % of the 2,000 block (a second load), one snowflake ID, and two
            // refusals: one by Leaf (unknown tag), one by Tomcat before Leaf sees it (encoded NUL).
            for (int i = 0; i < 300; i++) {
                http.getId("/api/segment/get/" + SAMPLE_TAG);
            }
            http.getId("/api/snowflake/get/k");
            assertThat(http.get("/api/segment/get/no-such-tag").statusCode()).isEqualTo(404);
            assertThat(http.get("/api/segment/get/a%00b").statusCode()).isEqualTo(400);
            // Tomcat tells its access logs (the counting valve) after the answer has gone out, so
            // the last refusal may be counted a moment after the client has read it.
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
                String scrape = http.get("/actuator/prometheus").body();
                assertSeries(scrape, "leaf_http_responses_total{status=\"4xx\"}", 2);
                assertSeries(scrape, "leaf_http_responses_total{status=\"2xx\"}", 301);
            });
            String afterTraffic = http.get("/actuator/prometheus").body();

            for (String metric : queried) {
                assertThat(afterTraffic).as("scrape after traffic has %s", metric)
                        .containsPattern("(?m)^" + metric + "[{ ]");
            }
            assertSeries(afterTraffic, "leaf_http_responses_total{status=\"4xx\"}", 2);
            assertSeries(afterTraffic, "leaf_http_responses_total{status=\"5xx\"}", 0);
            // 300 segment IDs and one snowflake ID; the scrapes of /actuator are not counted.
            assertSeries(afterTraffic, "leaf_http_responses_total{status=\"2xx\"}", 301);
            assertSeries(afterTraffic, "leaf_segment_load_seconds_count{outcome=\"failure\",tag=\"" + SAMPLE_TAG
                    + "\"}", 0);
        }
    }

    private static Set<String> metricsTheDashboardQueries() throws IOException {
        String dashboard = Files.readString(TestDatabase.repoFile("ops/grafana/leaf-dashboard.json"));
        Set<String> queried = new TreeSet<>();
        Matcher expressions = Pattern.compile("\"expr\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(dashboard);
        while (expressions.find()) {
            Matcher metric = METRIC.matcher(expressions.group(1));
            while (metric.find()) {
                queried.add(metric.group(1));
            }
        }
        return queried;
    }

    /** The metrics in the {@code expr:} lines of the alert rules, leaf-client's own left out. */
    private static Set<String> metricsTheServerAlertsQuery() throws IOException {
        Set<String> queried = new TreeSet<>();
        for (String line : Files.readAllLines(TestDatabase.repoFile("ops/prometheus/leaf-alerts.yml"))) {
            if (line.strip().startsWith("expr:")) {
                Matcher metric = METRIC.matcher(line);
                while (metric.find()) {
                    if (!metric.group(1).startsWith("leaf_client_")) {
                        queried.add(metric.group(1));
                    }
                }
            }
        }
        return queried;
    }

    /** The series (name and labels as Prometheus prints them) is in the scrape with this value. */
    private static void assertSeries(String scrape, String series, long value) {
        assertThat(scrape).as("scrape line of %s", series)
                .containsPattern("(?m)^" + Pattern.quote(series) + " " + value + "(\\.0)?$");
    }
}
