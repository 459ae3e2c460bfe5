package org.leafid.server.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.segment.SegmentBufferView;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The status page over plain HTTP (no browser) on the embedded default, with each mode switched
 * off in turn, and its escaping checked on the renderer directly.
 */
class StatusPageHttpTest {

    private static final String SAMPLE_TAG = "leaf-segment-test";
    private static final int WORKER_ID = 613;

    @TempDir
    Path dataDir;

    @Test
    void showsTheTagsBlockUsageAndWorkerId() {
        try (ConfigurableApplicationContext server = start("--leaf.snowflake.local.worker-id=" + WORKER_ID)) {
            Http http = http(server);
            for (int i = 0; i < 30; i++) {
                http.getId("/api/segment/get/" + SAMPLE_TAG);
            }

            HttpResponse<String> page = http.get("/");

            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type").orElseThrow().toLowerCase(Locale.ROOT))
                    .startsWith("text/html").contains("charset=utf-8");
            assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
            // The sample tag's first block is [1, 2001): 30 issued, 1970 left, 1.5 % shown as 1 %.
            assertThat(page.body()).contains("<title>Leaf status</title>", "<strong id=\"instance-name\">leaf<",
                    "<code>" + SAMPLE_TAG + "</code>", "[1, 2001)", ">1970<", "1 % used", "style=\"width:1.50%\"",
                    "id=\"worker-id\">" + WORKER_ID + "<", "id=\"reserved-until\">", "mode <code>local</code>",
                    "id=\"layout\">41/10/12 ms, ends 2080-07-10T17:30:30.209Z<");
            // Shard mode, on with the embedded database: its sample app, memory buffer, untouched.
            assertThat(page.body()).contains("buffer <code>memory</code>", "id=\"shard-buffer\">memory<",
                    "<tr id=\"app-1\"><td class=\"num\">1</td><td>leaf-shard-test</td><td class=\"num\">64</td>",
                    "<td>100.0 %</td>");
        }
    }

    @Test
    void showsReadinessVersionUptimeDataSourceAndTheLastMinutesCounts() {
        try (ConfigurableApplicationContext server = start("--leaf.snowflake.local.worker-id=" + WORKER_ID)) {
            Http http = http(server);
            for (int i = 0; i < 20; i++) {
                http.getId("/api/segment/get/" + SAMPLE_TAG);
                http.getId("/api/snowflake/get/k");
            }
            assertThat(http.get("/api/segment/get/no-such-tag").statusCode()).isEqualTo(404);
            assertThat(http.get("/api/segment/get/" + SAMPLE_TAG + "?count=0").statusCode()).isEqualTo(400);

            // The answers are counted by Tomcat's access log after they have gone out, so the last
            // refusal may be counted a moment after the client has read it.
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> http.get("/").body().contains("id=\"client-errors\">2<"));
            String page = http.get("/").body();

            assertThat(page).contains("<dd id=\"readiness\"><span class=\"badge on\">UP</span>",
                    "id=\"version\">" + server.getBean(BuildProperties.class).getVersion() + "<",
                    "id=\"data-source\">embedded H2, file "
                            + dataDir.toAbsolutePath().normalize().resolve("leaf-db.mv.db") + "<",
                    "id=\"client-errors\">2<", "id=\"server-errors\">0<");
            assertThat(page).containsPattern("id=\"uptime\">\\d+ s <span class=\"muted\">since 20");
            // 40 IDs within the few seconds since the start: well above 1 per second.
            Matcher rate = Pattern.compile("id=\"ids-per-second\">([0-9.]+)<").matcher(page);
            assertThat(rate.find()).isTrue();
            assertThat(Double.parseDouble(rate.group(1))).isGreaterThan(1.0);
        }
    }

    @Test
    void snowflakeSwitchedOffIsShownAsDisabled() {
        try (ConfigurableApplicationContext server = start("--leaf.snowflake.enable=false")) {
            HttpResponse<String> page = http(server).get("/");

            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("Snowflake mode is disabled", "<code>" + SAMPLE_TAG + "</code>")
                    .doesNotContain("id=\"worker-id\"");
        }
    }

    @Test
    void segmentSwitchedOffIsShownAsDisabled() {
        try (ConfigurableApplicationContext server = start("--leaf.segment.enable=false",
                "--leaf.snowflake.local.worker-id=" + WORKER_ID)) {
            HttpResponse<String> page = http(server).get("/");

            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("Segment mode is disabled", "id=\"worker-id\">" + WORKER_ID + "<")
                    .doesNotContain(SAMPLE_TAG);
        }
    }

    @Test
    void everyInsertedValueIsEscaped() {
        SegmentBufferView view = new SegmentBufferView("t\"<b>&'", true, 1, 101, 60, null, null, false, false,
                100, 100, -1, "db <down>");
        StatusPage.ServerSection server = new StatusPage.ServerSection("1.0<i>", Instant.EPOCH,
                new StatusPage.Readiness("DOWN", List.of("segment: db <gone>")), "jdbc:mysql://h/<x>",
                new StatusPageTraffic.LastMinute(Duration.ofSeconds(60), 0, 0, 0));
        StatusPage.Model model = new StatusPage.Model("<script>alert('x')</script>", Instant.EPOCH, server,
                new StatusPage.SegmentSection(true, true, null, List.of(view), Map.of()),
                new StatusPage.SnowflakeSection(true, "local", "10.0.0.1:8080", null, "lost <worker> & \"gone\"",
                        "41/10/12 ms"),
                new StatusPageShard.ShardSection(true, "redis", List.of(new StatusPageShard.AppRow(9,
                        "<img src=x onerror=alert(1)>", 64, 0, 0.05, 12)), null),
                List.of(new StatusPageFormats.FormatRow("o<r>", "ORD<{seq:6}>", "daily", "UTC", "2026&", 3)), true);

        String html = StatusPage.render(model);

        assertThat(html).doesNotContain("<script>", "<b>", "<worker>", "<down>", "<i>", "<gone>", "<x>", "<img")
                .contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;", "t&quot;&lt;b&gt;&amp;&#39;",
                        "lost &lt;worker&gt; &amp; &quot;gone&quot;", "40 % used", "never",
                        "last load failed: db &lt;down&gt;", "1.0&lt;i&gt;", "segment: db &lt;gone&gt;",
                        "jdbc:mysql://h/&lt;x&gt;", "&lt;img src=x onerror=alert(1)&gt;",
                        "<td class=\"problem\">5.0 %</td>", "<td class=\"num\">12</td>");
        assertThat(StatusPage.escape("plain-tag_1.2:3")).isEqualTo("plain-tag_1.2:3");
        assertThat(StatusPage.escape("a\u0000b\u001b[31mc\nd")).isEqualTo("a\uFFFDb\uFFFD[31mc d");
        assertThat(StatusPage.usedLabel(1, 0.05)).isEqualTo("&lt;1 % used");
        assertThat(StatusPage.usedLabel(0, 0.0)).isEqualTo("0 % used");
        assertThat(StatusPageServer.uptime(Duration.ofSeconds(42))).isEqualTo("42 s");
        assertThat(StatusPageServer.uptime(Duration.ofSeconds(3 * 3600 + 125))).isEqualTo("3 h 2 min");
        assertThat(StatusPageServer.uptime(Duration.ofDays(2).plusHours(5))).isEqualTo("2 d 5 h");
    }

    /** Starts the server as {@code java -jar} would, on a random port, with this test's data dir. */
    private ConfigurableApplicationContext start(String... extraArguments) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--leaf.snowflake.port=18096",
                "--leaf.data-dir=" + dataDir));
        arguments.addAll(List.of(extraArguments));
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments.toArray(String[]::new));
    }

    private static Http http(ConfigurableApplicationContext server) {
        return new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }
}
