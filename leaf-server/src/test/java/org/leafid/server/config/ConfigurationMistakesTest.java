package org.leafid.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdModeChoice;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Configuration mistakes, each as a user makes it (command-line arguments to the
 * real application): a typo, a switch written {@code yes}, a mode spelled with a dash, a key of
 * another mode. Each either works the way it reads or stops the start naming the key.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConfigurationMistakesTest {

    private static final String FAILED = "APPLICATION FAILED TO START";

    @TempDir
    Path dataDir;

    @Test
    void misspelledSwitchStopsTheStartNamingTheKeyMeant(CapturedOutput output) {
        assertThatThrownBy(() -> start("--leaf.snowflake.enbale=true"))
                .isInstanceOfSatisfying(LeafConfigurationException.class,
                        e -> assertThat(e.key()).isEqualTo("leaf.snowflake.enbale"));
        assertThat(output).contains(FAILED,
                "Leaf configuration: leaf.snowflake.enbale is not a Leaf key (command-line argument).",
                "Did you mean leaf.snowflake.enable instead of leaf.snowflake.enbale?");
    }

    @Test
    void misspelledGroupStopsTheStartNamingTheKeyMeant(CapturedOutput output) {
        assertThatThrownBy(() -> start("--leaf.segmnet.refresh-interval=5s"))
                .hasMessageContaining("Did you mean leaf.segment.refresh-interval");
        assertThat(output).contains(FAILED, "Did you mean leaf.segment.refresh-interval");
    }

    @Test
    void keyFarFromEveryLeafKeySaysSoAndSystemPropertiesAreCheckedToo(CapturedOutput output) {
        System.setProperty("leaf.snowflak.worker-id", "3");
        try {
            assertThatThrownBy(() -> start("--leaf.colour=blue"))
                    .hasMessageContaining("leaf.colour: command-line argument")
                    .hasMessageContaining("No Leaf key is close to leaf.colour")
                    .hasMessageContaining("leaf.snowflak.worker-id: Java system property");
        } finally {
            System.clearProperty("leaf.snowflak.worker-id");
        }
        assertThat(output).contains(FAILED, "leaf.colour");
    }

    @Test
    void switchThatIsNeitherOnNorOffStopsTheStartNamingTheKey(CapturedOutput output) {
        assertThatThrownBy(() -> start("--leaf.snowflake.enable=maybe")).hasStackTraceContaining("leaf.snowflake.enable");
        assertThat(output).contains(FAILED, "Leaf configuration: leaf.snowflake.enable=maybe",
                "Set leaf.snowflake.enable to true or false (on/off, yes/no and 1/0 are read the same way).");
    }

    @Test
    void unknownModeStopsTheStartListingTheModes(CapturedOutput output) {
        assertThatThrownBy(() -> start("--leaf.snowflake.mode=bogus")).hasStackTraceContaining("leaf.snowflake.mode");
        assertThat(output).contains(FAILED, "Leaf configuration: leaf.snowflake.mode=bogus",
                "Set leaf.snowflake.mode to one of zk_normal, zk_recycle, mysql, local");
    }

    @Test
    void aRefusedStartSaysWhyOnceWithoutTheContextsLongWarning(CapturedOutput output) {
        assertThatThrownBy(() -> start("--leaf.snowflake.mode=bogus")).hasStackTraceContaining("leaf.snowflake.mode");
        assertThat(output).contains(FAILED, "Set leaf.snowflake.mode to one of")
                .doesNotContain("Exception encountered during context initialization");
        assertThat(output.getAll().lines().filter(line -> line.length() > 500).toList())
                .as("lines of the refused start longer than 500 characters").isEmpty();
    }

    @Test
    void theStartLogNamesShardModesCountersApartFromTheSegmentTags(CapturedOutput output) {
        // The embedded default: the sample tag leaf-segment-test, and app 1 of shard mode with 64 shards.
        try (ConfigurableApplicationContext server = start()) {
            assertThat(server.isRunning()).isTrue();
        }
        assertThat(output).contains("Segment tags refreshed: 1 served, added [leaf-segment-test]",
                "Shard mode's (app:shard) counters refreshed: 64 served, added [1:");
        // Read after the logger's name: the time of day in front of it can hold "1:0" too (01:11:00.193).
        assertThat(output.getAll().lines().filter(line -> line.contains("Segment tags refreshed")
                && line.substring(line.indexOf("Segment tags refreshed")).contains("1:0")).toList())
                .as("shard counters listed as segment tags").isEmpty();
    }

    /**
     * Snowflake on with "yes" (off before, where @ConditionalOnProperty compared strings), segment
     * off with "off"; mode unset without a ZooKeeper address is local, and a report interval
     * that zk_recycle's lease rule would refuse is fine there. No ZooKeeper session is opened.
     */
    @Test
    void yesAndOffMeanOnAndOffEverywhereAndLocalModeIgnoresTheRecycleRule(CapturedOutput output) {
        try (ConfigurableApplicationContext server = start("--leaf.snowflake.enable=yes", "--leaf.segment.enable=off",
                "--leaf.snowflake.report-interval=11s")) {
            Http http = new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
            assertThat(http.getId("/api/snowflake/get/any")).isPositive();
            assertThat(http.get("/api/segment/get/leaf-segment-test").body()).contains("leaf.segment.enable");
            assertThat(server.getBeansOfType(CuratorFramework.class)).isEmpty();
        }
        assertThat(output).contains("Snowflake: worker id 0 in mode local "
                + "(leaf.snowflake.mode unset and no leaf.snowflake.zk.address), instance 127.0.0.1:18091");
    }

    /**
     * Meituan Leaf's keys only (an address, no mode) take the worker id from ZooKeeper, as Leaf
     * does; and every spelling of a mode is that mode.
     */
    @Test
    void zookeeperAddressWithoutModeIsZkNormalAndModeSpellingsAreOneMode(CapturedOutput output) throws Exception {
        try (TestingServer zookeeper = new TestingServer(true)) {
            String address = "--leaf.snowflake.zk.address=" + zookeeper.getConnectString();
            try (ConfigurableApplicationContext server = start(address, "--leaf.segment.enable=false")) {
                assertThat(server.getBean(WorkerIdRegistry.class).getClass().getSimpleName())
                        .isEqualTo("ZkNormalWorkerIdRegistry");
                assertThat(server.getBean(WorkerIdModeChoice.class).mode()).isEqualTo(WorkerIdMode.ZK_NORMAL);
            }
            assertThat(output).contains("Snowflake: worker id 0 in mode zk_normal (leaf.snowflake.mode unset and "
                    + "leaf.snowflake.zk.address set: Meituan Leaf's rule), instance 127.0.0.1:18091");
            try (ConfigurableApplicationContext server = start(address, "--leaf.segment.enable=false",
                    "--leaf.snowflake.mode=zk-normal")) {
                Http http = new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
                assertThat(http.getId("/api/snowflake/get/any")).isPositive();
            }
            assertThat(output).contains("in mode zk_normal (leaf.snowflake.mode=zk_normal)");
        }
    }

    /** The store follows the url; a url of another database ends the start in one line listing the supported ones. */
    @Test
    void aUrlOfADatabaseLeafDoesNotSupportStopsTheStartNamingTheKeyAndTheDatabases(CapturedOutput output) {
        assertThatThrownBy(() -> start("--leaf.jdbc.url=jdbc:oracle:thin:leaf/S3cret@db.example:1521/leaf"))
                .hasStackTraceContaining("leaf.jdbc.url");
        String printed = output.toString();
        assertThat(printed).contains(FAILED, "leaf.jdbc.url is jdbc:oracle:…, not a database Leaf supports",
                "PostgreSQL (jdbc:postgresql:…)", "MySQL, MariaDB or TiDB").doesNotContain("S3cret");
        assertThat(printed.lines().filter(line -> line.strip().startsWith("at ")).count())
                .as("stack frames printed").isZero();
    }

    /** jdbc:mariadb: without MariaDB's driver (the server ships Connector/J only) ends in one line, not a long trace. */
    @Test
    void aMariadbUrlWithoutItsDriverStopsTheStartSayingWhatToWrite(CapturedOutput output) {
        assertThatThrownBy(() -> start("--leaf.jdbc.url=jdbc:mariadb://127.0.0.1:3306/leaf?password=S3cret"))
                .hasStackTraceContaining("leaf.jdbc.url");
        String printed = output.toString();
        assertThat(printed).contains(FAILED, "leaf.jdbc.url is jdbc:mariadb:", "no JDBC driver for jdbc:mariadb:",
                "Write the url as jdbc:mysql://").doesNotContain("S3cret");
        assertThat(printed.lines().filter(line -> line.strip().startsWith("at ")).count())
                .as("stack frames printed").isZero();
    }

    /** A list of hosts that Connector/J would make read-only after a failover stops the start, saying what to add. */
    @Test
    void aListOfHostsThatTurnsReadOnlyAfterAFailoverStopsTheStartNamingTheSetting(CapturedOutput output) {
        assertThatThrownBy(() -> start("--leaf.jdbc.url=jdbc:mysql://127.0.0.1:1,127.0.0.1:2/leaf?password=S3cret"))
                .hasStackTraceContaining("leaf.jdbc.url");
        String printed = output.toString();
        assertThat(printed).contains(FAILED, "leaf.jdbc.url is jdbc:mysql://", "a list of hosts",
                "read-only", "Add failOverReadOnly=false to the url").doesNotContain("S3cret");
        assertThat(printed.lines().filter(line -> line.strip().startsWith("at ")).count())
                .as("stack frames printed").isZero();
    }

    /** A worker id that cannot be had ends in the summary with the reason, not a long stack trace. */
    @Test
    void unreachableZookeeperEndsInTheSummaryNotAStackTrace(CapturedOutput output) {
        assertThatThrownBy(() -> start("--leaf.segment.enable=false", "--leaf.snowflake.zk.address=127.0.0.1:1",
                "--leaf.snowflake.zk.connect-timeout=300ms"))
                .hasStackTraceContaining("could not be reached");
        String printed = output.toString();
        assertThat(printed).contains(FAILED, "Snowflake could not start: ZooKeeper (leaf.snowflake.zk.address)",
                "Action:", "leaf.snowflake.zk.address");
        assertThat(printed.lines().filter(line -> line.strip().startsWith("at ")).count())
                .as("stack frames printed").isZero();
    }

    /** A worker-id cache file that is not one stops the start (its reservation is unknown) in the summary. */
    @Test
    void corruptWorkerIdCacheFileEndsInTheSummaryNotAStackTrace(CapturedOutput output) throws Exception {
        Path cache = dataDir.resolve("leaf").resolve("18091").resolve("workId.json");
        Files.createDirectories(cache.getParent());
        Files.writeString(cache, "{\"workerId\":3,\"reservedUntil\":");
        assertThatThrownBy(() -> start("--leaf.segment.enable=false")).hasStackTraceContaining("is not valid");
        String printed = output.toString();
        assertThat(printed).contains(FAILED, "Snowflake could not start: Worker-id cache " + cache + " is not valid",
                "Action:", "Restore " + cache);
        assertThat(printed.lines().filter(line -> line.strip().startsWith("at ")).count())
                .as("stack frames printed").isZero();
    }

    @Test
    void aFormatPatternThatCannotBeReadStopsTheStartNamingTheKey(CapturedOutput output) {
        assertThatThrownBy(() -> start("--leaf.formats.order.pattern=ORD{yyyy}{seq}"))
                .hasStackTraceContaining("leaf.formats.order.pattern");
        assertThat(output).contains(FAILED, "leaf.formats.order.pattern", "needs a width");
    }

    @Test
    void aDailyFormatWithoutItsDayStopsTheStartNamingTheKey(CapturedOutput output) {
        assertThatThrownBy(() -> start("--leaf.formats.order.pattern=ORD{yy}{MM}{dd}{seq:6}",
                "--leaf.formats.order.reset=daily")).hasStackTraceContaining("leaf.formats.order.reset");
        assertThat(output).contains(FAILED, "leaf.formats.order.reset", "lacks {yyyy}");
    }

    @Test
    void aSnowflakeFormatTooNarrowForItsIdsStopsTheStart(CapturedOutput output) {
        assertThatThrownBy(() -> start("--leaf.formats.pub.pattern=u{seq62:8}", "--leaf.formats.pub.source=snowflake"))
                .hasStackTraceContaining("leaf.formats.pub.pattern");
        assertThat(output).contains(FAILED, "fewer than a snowflake ID has", "{seq62:11}");
    }

    private ConfigurableApplicationContext start(String... extraArguments) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--leaf.snowflake.ip=127.0.0.1",
                "--leaf.snowflake.port=18091", "--leaf.data-dir=" + dataDir));
        arguments.addAll(List.of(extraArguments));
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments.toArray(String[]::new));
    }
}
