package org.leafid.autoconfigure.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.snowflake.Borrowing;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeId;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Snowflake layouts from the keys: the uid-generator preset, explicit widths and unit,
 * the end-date refusal and warning, borrow-ahead, and the {@code disposable} worker-id mode on
 * MariaDB (a database of its own, {@code WORKER_NODE} emptied first).
 */
@ExtendWith(OutputCaptureExtension.class)
class SnowflakeLayoutsAppTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class SnowflakeApplication {}

    @TempDir
    Path dataDir;

    private final String name = "layouts-" + UUID.randomUUID().toString().substring(0, 8);
    private int starts;

    @Test
    void theUidGeneratorPresetIssuesIdsOfItsLayoutAndLogsItsEnd(CapturedOutput output) throws Exception {
        try (ConfigurableApplicationContext application = start("leaf.snowflake.layout=uid-generator",
                "leaf.snowflake.local.worker-id=1000", "leaf.snowflake.borrow-ahead=true")) {
            SnowflakeGenerator generator = application.getBean(SnowflakeGenerator.class);
            assertThat(generator.layout()).isEqualTo(SnowflakeLayout.uidGenerator());
            assertThat(generator.borrowing()).as("local mode: within the reservation").isEqualTo(Borrowing.WITHIN_RESERVATION);
            // 16,000 IDs within the second of the start: borrowed from the next seconds, inside the
            // 6 s reservation of local mode (4,096 a second is all a 12-bit sequence gives otherwise).
            long[] ids = ConcurrentIds.assertNoDuplicate(ConcurrentIds.take(8, 2_000, generator::nextId));
            assertThat(ids).hasSize(16_000);
            SnowflakeId first = generator.layout().decode(ids[0]);
            assertThat(first.workerId()).isEqualTo(1000);
            assertThat(first.timestampMillis() % 1000).as("a second's start").isZero();
        }
        assertThat(output).contains("Snowflake layout 31/20/12 s from 2016-05-20T00:00:00Z")
                .contains("ends at 2084-06-07T03:14:08Z");
    }

    @Test
    void explicitWidthsUnitAndEpochMakeTheLayout() {
        try (ConfigurableApplicationContext application = start("leaf.snowflake.layout.time-bits=39",
                "leaf.snowflake.layout.worker-bits=12", "leaf.snowflake.layout.sequence-bits=12",
                "leaf.snowflake.time-unit=ms", "leaf.snowflake.epoch=2020-01-01")) {
            SnowflakeLayout layout = application.getBean(SnowflakeGenerator.class).layout();
            assertThat(layout).isEqualTo(new SnowflakeLayout(39, 12, 12, SnowflakeLayout.Unit.MILLISECONDS,
                    LocalDate.of(2020, 1, 1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli()));
        }
    }

    /** {@code leaf.snowflake.layout} is a value and a prefix: the preset alone, in {@code .preset}, or with widths. */
    @Test
    void thePresetKeyBindsAloneAsPresetOrUnderTheWidths() {
        try (ConfigurableApplicationContext application = start("leaf.snowflake.layout.preset=uid-generator")) {
            assertThat(application.getBean(SnowflakeLayout.class)).isEqualTo(SnowflakeLayout.uidGenerator());
        }
        try (ConfigurableApplicationContext application = start("leaf.snowflake.layout=uid-generator",
                "leaf.snowflake.layout.time-bits=30", "leaf.snowflake.layout.worker-bits=21",
                "leaf.snowflake.layout.sequence-bits=12")) {
            assertThat(application.getBean(SnowflakeLayout.class)).isEqualTo(new SnowflakeLayout(30, 21, 12,
                    SnowflakeLayout.Unit.SECONDS, SnowflakeLayout.UID_GENERATOR_EPOCH));
        }
    }

    /** The worker ids a mode accepts are the layout's: 20 bits in the uid-generator preset. */
    @Test
    void theUidGeneratorPresetTakesWorkerIdsUpToTwoToTheTwentyMinusOne() {
        int largest = (1 << 20) - 1;
        try (ConfigurableApplicationContext application = start("leaf.snowflake.layout=uid-generator",
                "leaf.snowflake.local.worker-id=" + largest)) {
            SnowflakeGenerator generator = application.getBean(SnowflakeGenerator.class);
            assertThat(generator.layout().decode(generator.nextId()).workerId()).isEqualTo(largest);
        }
        assertThatThrownBy(() -> start("leaf.snowflake.layout=uid-generator",
                "leaf.snowflake.local.worker-id=" + (largest + 1)))
                .hasStackTraceContaining("leaf.snowflake.local.worker-id must be in 0.." + largest);
        assertThatThrownBy(() -> start("leaf.snowflake.layout.time-bits=43", "leaf.snowflake.layout.worker-bits=8",
                "leaf.snowflake.layout.sequence-bits=12", "leaf.snowflake.local.workIdMap={\"10.0.0.1:19570\": 256}"))
                .hasStackTraceContaining("leaf.snowflake.local.workIdMap[10.0.0.1:19570] must be in 0..255");
    }

    @Test
    void aLayoutThatEndedOrEndsWithinAYearIsRefusedNamingTheKeys() {
        // uid-generator's own default: 28 bits of seconds from 2016-05-20, ended on 2024-11-20.
        assertThatThrownBy(() -> start("leaf.snowflake.layout.time-bits=28", "leaf.snowflake.layout.worker-bits=22",
                "leaf.snowflake.layout.sequence-bits=13", "leaf.snowflake.time-unit=s", "leaf.snowflake.epoch=2016-05-20"))
                .rootCause().hasMessageContaining("leaf.snowflake.layout").hasMessageContaining("ended at 2024-11-20")
                .hasMessageContaining("more time bits");
        // 25 bits of seconds (388 days) from 300 days ago: ends in about 88 days.
        String recent = LocalDate.now(ZoneOffset.UTC).minusDays(300).toString();
        assertThatThrownBy(() -> start("leaf.snowflake.layout.time-bits=25", "leaf.snowflake.layout.worker-bits=25",
                "leaf.snowflake.layout.sequence-bits=13", "leaf.snowflake.time-unit=s", "leaf.snowflake.epoch=" + recent))
                .rootCause().hasMessageContaining("which ends at");
        assertThatThrownBy(() -> start("leaf.snowflake.epoch=2020-01-01", "leaf.snowflake.twepoch=1288834974657"))
                .rootCause().hasMessageContaining("both set");
        assertThatThrownBy(() -> start("leaf.snowflake.layout=snowflake"))
                .rootCause().hasMessageContaining("no preset");
        assertThatThrownBy(() -> start("leaf.snowflake.layout.time-bits=40"))
                .rootCause().hasMessageContaining("1 of the 3 are set");
    }

    @Test
    void aLayoutEndingWithinFiveYearsStartsWithAWarning(CapturedOutput output) {
        // 27 bits of seconds (about 4.25 years) from 100 days ago.
        String recent = LocalDate.now(ZoneOffset.UTC).minusDays(100).toString();
        try (ConfigurableApplicationContext application = start("leaf.snowflake.layout.time-bits=27",
                "leaf.snowflake.layout.worker-bits=23", "leaf.snowflake.layout.sequence-bits=13",
                "leaf.snowflake.time-unit=s", "leaf.snowflake.epoch=" + recent)) {
            assertThat(application.getBean(SnowflakeGenerator.class).nextId()).isPositive();
        }
        assertThat(output).contains("ends at").contains("in less than 5 years");
    }

    @Test
    void disposableWorkerIdsAreNewRowsOfWorkerNodeOnEveryStart() {
        TestDatabase database = TestDatabase.get().derived("disposable_app");
        database.update("TRUNCATE TABLE WORKER_NODE");
        List<String> disposable = new ArrayList<>(LeafApplications.jdbcSettings(database));
        disposable.addAll(List.of("leaf.snowflake.mode=disposable", "leaf.snowflake.layout=uid-generator",
                "leaf.snowflake.borrow-ahead=true", "leaf.segment.enable=false"));
        List<Integer> workerIds = new ArrayList<>();
        for (int start = 0; start < 3; start++) {
            try (ConfigurableApplicationContext application = start(disposable.toArray(String[]::new))) {
                workerIds.add(application.getBean(WorkerIdHolder.class).lease().workerId());
                SnowflakeGenerator generator = application.getBean(SnowflakeGenerator.class);
                assertThat(generator.borrowing()).as("a disposable id is never another's: borrowing unbounded")
                        .isEqualTo(Borrowing.UNBOUNDED);
                // Unbounded borrowing: far more IDs than the seconds of the reservation hold, at once.
                long[] ids = generator.nextIds(100_000);
                assertThat(generator.layout().decode(ids[ids.length - 1]).workerId()).isEqualTo(workerIds.get(start));
            }
        }
        assertThat(workerIds).containsExactly(1, 2, 3);
        assertThat(database.number("SELECT COUNT(*) FROM WORKER_NODE")).isEqualTo(3);

        // Leaf's 10 worker bits: refused unless meant.
        List<String> tenBits = new ArrayList<>(LeafApplications.jdbcSettings(database));
        tenBits.addAll(List.of("leaf.snowflake.mode=disposable", "leaf.segment.enable=false"));
        assertThatThrownBy(() -> start(tenBits.toArray(String[]::new)))
                .rootCause().hasMessageContaining("10 worker bits")
                .hasMessageContaining("leaf.snowflake.disposable.allow-few-worker-bits=true");
        tenBits.add("leaf.snowflake.disposable.allow-few-worker-bits=true");
        try (ConfigurableApplicationContext application = start(tenBits.toArray(String[]::new))) {
            assertThat(application.getBean(WorkerIdHolder.class).lease().workerId()).as("the refused start took no row")
                    .isEqualTo(4);
        }
    }

    private ConfigurableApplicationContext start(String... settings) {
        // A port of its own per start: a start on the port of an earlier one would wait out its reservation.
        List<String> all = LeafApplications.baseSettings(name, dataDir, 19570 + starts++);
        all.add("leaf.shard.enable=false");
        all.addAll(List.of(settings));
        return LeafApplications.start(SnowflakeApplication.class, all);
    }
}
