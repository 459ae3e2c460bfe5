package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.testing.FakeClock;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

/**
 * The server in the uid-generator layout: batches borrowed from the next seconds while
 * the clock stands still, decode, the status page and the borrowed-seconds meter in that layout,
 * and a worker id of the full 20 bits.
 */
class UidGeneratorLayoutHttpTest {

    private static final int WORKER_ID = (1 << 20) - 1;
    /** Inside a second, so that three seconds' sequences are borrowed ahead of it. */
    private static final long NOW = Instant.parse("2026-11-24T10:00:00.250Z").toEpochMilli();

    @TempDir
    Path dataDir;

    @Test
    void batchesBorrowAheadAndDecodeStatusPageAndMetricsFollowTheLayout() {
        FakeClock clock = new FakeClock(NOW);
        try (ConfigurableApplicationContext server = start(clock)) {
            Http http = http(server);
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                HttpResponse<String> batch = http.get("/api/snowflake/get/uid?count=1000");
                assertThat(batch.statusCode()).isEqualTo(200);
                Arrays.stream(batch.body().trim().split("\n")).map(Long::parseLong).forEach(ids::add);
            }
            assertThat(ids).hasSize(10_000).doesNotHaveDuplicates().isSorted();
            SnowflakeLayout layout = SnowflakeLayout.uidGenerator();
            long second = NOW - NOW % 1000;
            // 10,000 IDs at 4,096 a second, the clock frozen: the next two seconds were borrowed.
            assertThat(layout.decode(ids.get(ids.size() - 1)).timestampMillis()).isEqualTo(second + 2000);

            HttpResponse<String> decoded = http.get("/api/snowflake/decode/" + ids.get(ids.size() - 1));
            assertThat(decoded.statusCode()).isEqualTo(200);
            assertThat(decoded.body()).contains("\"layout\":\"31/20/12 s\"", "\"workerId\":" + WORKER_ID,
                    "\"timestamp\":" + (second + 2000), "\"id\":\"" + ids.get(ids.size() - 1) + "\"");

            assertThat(http.get("/").body()).contains("id=\"layout\">31/20/12 s, ends 2084-06-07T03:14:08Z<",
                    "id=\"worker-id\">" + WORKER_ID + "<");

            Matcher borrowed = Pattern.compile("(?m)^leaf_snowflake_borrowed_seconds(?:\\{[^}]*\\})? (\\S+)$")
                    .matcher(http.get("/actuator/prometheus").body());
            assertThat(borrowed.find()).as("leaf_snowflake_borrowed_seconds is published").isTrue();
            assertThat(Double.parseDouble(borrowed.group(1))).isEqualTo((second + 2000 - NOW) / 1000.0);
        }
    }

    private ConfigurableApplicationContext start(FakeClock clock) {
        String[] arguments = {"--server.port=0", "--leaf.snowflake.port=18097", "--leaf.data-dir=" + dataDir,
                "--leaf.segment.enable=false", "--leaf.shard.enable=false", "--leaf.snowflake.layout=uid-generator",
                "--leaf.snowflake.borrow-ahead=true", "--leaf.snowflake.local.worker-id=" + WORKER_ID};
        // Both the InstantSource and the Sleeper the server injects: the clock stands still unless waited on.
        return new SpringApplicationBuilder(LeafServerApplication.class)
                .initializers(context -> ((GenericApplicationContext) context).registerBean("fakeClock",
                        FakeClock.class, () -> clock, definition -> definition.setPrimary(true)))
                .run(arguments);
    }

    private static Http http(ConfigurableApplicationContext server) {
        return new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }
}
