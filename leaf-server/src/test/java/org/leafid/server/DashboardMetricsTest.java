package org.leafid.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.support.Http;
import org.leafid.server.support.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Grafana dashboard ({@code ops/grafana/leaf-dashboard.json}) may only query meters the
 * server exports: every metric its expressions name must be in a real scrape after traffic.
 */
class DashboardMetricsTest {

    private static final Pattern METRIC = Pattern.compile("\\b(leaf_[a-z0-9_]+|jvm_[a-z0-9_]+|http_[a-z0-9_]+)");

    @TempDir
    Path dataDir;

    @Test
    void everyMetricTheDashboardQueriesIsExported() throws IOException {
        String dashboard = Files.readString(TestDatabase.repoFile("ops/grafana/leaf-dashboard.json"));
        Set<String> queried = new TreeSet<>();
        Matcher expressions = Pattern.compile("\"expr\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(dashboard);
        while (expressions.find()) {
            Matcher metric = METRIC.matcher(expressions.group(1));
            while (metric.find()) {
                queried.add(metric.group(1));
            }
        }
        assertThat(queried).as("metrics named by the dashboard").hasSizeGreaterThanOrEqualTo(8);

        try (ConfigurableApplicationContext server = new SpringApplicationBuilder(LeafServerApplication.class)
                .run("--server.port=0", "--leaf.snowflake.port=18096", "--leaf.data-dir=" + dataDir)) {
            Http http = new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
            for (int i = 0; i < 300; i++) { // past 10 % of the 2,000 block: a second load
                http.getId("/api/segment/get/leaf-segment-test");
            }
            http.getId("/api/snowflake/get/k");
            String scrape = http.get("/actuator/prometheus").body();

            for (String metric : queried) {
                assertThat(scrape).as("scrape has %s", metric).containsPattern("(?m)^" + metric + "[{ ]");
            }
        }
    }
}
