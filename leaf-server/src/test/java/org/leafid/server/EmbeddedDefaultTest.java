package org.leafid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.testing.FakeClock;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

/**
 * The embedded default (no {@code leaf.jdbc.url}: H2 under the data dir, snowflake local) as a
 * user runs it: start, issue, stop, start again, and never see an ID twice.
 */
class EmbeddedDefaultTest {

    private static final String SAMPLE_TAG = "/api/segment/get/leaf-segment-test";
    private static final String SNOWFLAKE = "/api/snowflake/get/any";

    @TempDir
    Path dataDir;

    @Test
    void startsWithNoConfigurationAndIdsSurviveARestart() {
        List<Long> segmentIds = new ArrayList<>();
        List<Long> snowflakeIds = new ArrayList<>();
        try (ConfigurableApplicationContext server = start(null)) {
            Http http = http(server);
            for (int i = 0; i < 10; i++) {
                segmentIds.add(http.getId(SAMPLE_TAG));
                snowflakeIds.add(http.getId(SNOWFLAKE));
            }
        }
        assertThat(segmentIds.get(0)).isEqualTo(1);
        assertThat(Files.exists(dataDir.resolve("leaf-db.mv.db"))).isTrue();
        assertThat(Files.exists(dataDir.resolve("leaf").resolve("18090").resolve("workId.json"))).isTrue();

        try (ConfigurableApplicationContext server = start(null)) {
            Http http = http(server);
            long segmentAfterRestart = http.getId(SAMPLE_TAG);
            long snowflakeAfterRestart = http.getId(SNOWFLAKE);
            // The rest of the first block is skipped, never reissued.
            assertThat(segmentAfterRestart).isEqualTo(2001);
            assertThat(snowflakeAfterRestart).isGreaterThan(snowflakeIds.get(snowflakeIds.size() - 1));
        }
    }

    @Test
    void restartWithTheClockSteppedBackTwoSecondsRepeatsNothing() {
        long now = System.currentTimeMillis();
        List<Long> before = new ArrayList<>();
        FakeClock firstRun = new FakeClock(now);
        try (ConfigurableApplicationContext server = start(firstRun, "--leaf.segment.enable=false",
                "--leaf.snowflake.max-start-wait=10s")) {
            Http http = http(server);
            for (int i = 0; i < 2_000; i++) {
                before.add(http.getId(SNOWFLAKE));
                if (i % 100 == 0) {
                    firstRun.advance(1); // issue over several milliseconds
                }
            }
        }

        // Meituan Leaf's known flaw: restart with the clock 2 s behind, less than the report interval.
        FakeClock secondRun = new FakeClock(firstRun.millis() - 2_000);
        try (ConfigurableApplicationContext server = start(secondRun, "--leaf.segment.enable=false",
                "--leaf.snowflake.max-start-wait=10s")) {
            Http http = http(server);
            long lastBefore = before.stream().mapToLong(Long::longValue).max().orElseThrow();
            for (int i = 0; i < 2_000; i++) {
                assertThat(http.getId(SNOWFLAKE)).isGreaterThan(lastBefore);
            }
        }
        assertThat(before).doesNotHaveDuplicates();
    }

    @Test
    void restartRefusedWhenTheReservationIsFurtherAheadThanTheStartWait() {
        long now = System.currentTimeMillis();
        FakeClock firstRun = new FakeClock(now);
        try (ConfigurableApplicationContext server = start(firstRun, "--leaf.segment.enable=false")) {
            http(server).getId(SNOWFLAKE);
        }

        FakeClock farBehind = new FakeClock(now - 60_000);
        assertThatThrownBy(() -> start(farBehind, "--leaf.segment.enable=false"))
                .hasStackTraceContaining("ahead of the clock");
    }

    @Test
    void invalidConfigurationStopsTheStartNamingTheKey() {
        assertThatThrownBy(() -> start(null, "--leaf.snowflake.mode=bogus"))
                .hasStackTraceContaining("leaf.snowflake.mode");
        assertThatThrownBy(() -> start(null, "--leaf.segment.max-step=0"))
                .hasStackTraceContaining("leaf.segment.max-step");
        assertThatThrownBy(() -> start(null, "--leaf.snowflake.local.workIdMap={not json"))
                .hasStackTraceContaining("leaf.snowflake.local.workIdMap");
        assertThatThrownBy(() -> start(null, "--leaf.snowflake.local.worker-id=1024"))
                .hasStackTraceContaining("leaf.snowflake.local.worker-id");
    }

    /** Starts the server as {@code java -jar} would, on a random port, with this test's data dir. */
    private ConfigurableApplicationContext start(FakeClock clock, String... extraArguments) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--leaf.snowflake.port=18090",
                "--leaf.data-dir=" + dataDir));
        arguments.addAll(List.of(extraArguments));
        SpringApplicationBuilder builder = new SpringApplicationBuilder(LeafServerApplication.class);
        if (clock != null) {
            // Both the InstantSource and the Sleeper the server injects: its waits move this clock.
            builder.initializers(context -> ((GenericApplicationContext) context).registerBean("fakeClock",
                    FakeClock.class, () -> clock, definition -> definition.setPrimary(true)));
        }
        return builder.run(arguments.toArray(String[]::new));
    }

    private static Http http(ConfigurableApplicationContext server) {
        return new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }
}
