package org.leafid.autoconfigure.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.autoconfigure.app.ConcurrentIds;
import org.leafid.autoconfigure.app.LeafApplications;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The example application of docs/embedding.md, started as its main method starts it, as the page
 * says: the page's SQL row and its properties, with the {@code leaf.jdbc.*} values pointed at the
 * test MariaDB. Many threads take order numbers and event ids through its service at once.
 */
@ExtendWith(OutputCaptureExtension.class)
class EmbeddingExampleTest {

    private static final int THREADS = 8;
    private static final int IDS_PER_THREAD = 20_000;

    @TempDir
    Path dataDir;

    @Test
    void exampleServiceIssuesUniqueIdsFromManyThreads(CapturedOutput output) throws Exception {
        TestDatabase database = TestDatabase.get();
        // The page's INSERT, as written; the tag is fixed, so the row is kept between runs (a
        // second INSERT finds it there), and what counts is where it stood when this run began.
        String insert = String.join(" ", EmbeddingDoc.block("sql")).strip();
        assertThat(insert).contains("'" + OrderIds.ORDER_TAG + "'");
        if (database.number("SELECT COUNT(*) FROM leaf_alloc WHERE biz_tag = ?", OrderIds.ORDER_TAG) == 0) {
            database.update(insert.substring(0, insert.length() - (insert.endsWith(";") ? 1 : 0)));
        }
        long maxIdBefore = database.maxId(OrderIds.ORDER_TAG);
        Map<String, String> page = EmbeddingDoc.properties();
        assertThat(page).containsKeys("leaf.jdbc.url", "leaf.jdbc.username", "leaf.jdbc.password");
        List<String> settings = LeafApplications.baseSettings("example-" + UUID.randomUUID().toString().substring(0, 8),
                dataDir, 19501);
        page.forEach((key, value) -> {
            if (!key.startsWith("leaf.jdbc.")) {
                settings.add(key + "=" + value);
            }
        });
        settings.addAll(LeafApplications.jdbcSettings(database));
        int workerId = Integer.parseInt(page.get("leaf.snowflake.local.worker-id"));

        long[][] orderNumbers;
        long[][] eventIds;
        SnowflakeLayout layout;
        try (ConfigurableApplicationContext application = LeafApplications.start(OrderApplication.class, settings)) {
            // What a reader sees when starting it: the runner's line, an ID of each kind.
            Matcher printed = Pattern.compile("order number (\\d+), event id (\\d+)").matcher(output.getOut());
            assertThat(printed.find()).as("the example's line in %s", output.getOut()).isTrue();
            assertThat(Long.parseLong(printed.group(1))).isGreaterThanOrEqualTo(maxIdBefore);
            assertThat(Long.parseLong(printed.group(2))).isPositive();
            OrderIds ids = application.getBean(OrderIds.class);
            layout = application.getBean(SnowflakeLayout.class);
            orderNumbers = ConcurrentIds.take(THREADS, IDS_PER_THREAD, ids::nextOrderNumber);
            eventIds = ConcurrentIds.take(THREADS, IDS_PER_THREAD, ids::nextEventId);
        }

        long[] allOrderNumbers = ConcurrentIds.assertNoDuplicate(orderNumbers);
        assertThat(allOrderNumbers).hasSize(THREADS * IDS_PER_THREAD);
        ConcurrentIds.assertIncreasingPerThread(orderNumbers);
        // Leaf issues a block (old max_id .. new max_id - 1): nothing below the row's value at the start
        assertThat(allOrderNumbers[0]).isGreaterThanOrEqualTo(maxIdBefore);
        assertThat(allOrderNumbers[allOrderNumbers.length - 1]).isLessThan(database.maxId(OrderIds.ORDER_TAG));

        long[] allEventIds = ConcurrentIds.assertNoDuplicate(eventIds);
        assertThat(allEventIds).hasSize(THREADS * IDS_PER_THREAD);
        ConcurrentIds.assertIncreasingPerThread(eventIds);
        assertThat(Arrays.stream(allEventIds).map(id -> layout.decode(id).workerId()).distinct().toArray())
                .containsExactly(workerId);
    }
}
