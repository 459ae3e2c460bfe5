package org.leafid.autoconfigure.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.autoconfigure.app.ConcurrentIds;
import org.leafid.autoconfigure.app.LeafApplications;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.jdbc.testing.TestDatabase;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The README's example application, started as its main method starts it, on the test MariaDB
 * with snowflake worker ids from local configuration: many threads take order numbers and event
 * ids through its service at once.
 */
class EmbeddingExampleTest {

    private static final int THREADS = 8;
    private static final int IDS_PER_THREAD = 20_000;
    private static final int WORKER_ID = 5;

    @TempDir
    Path dataDir;

    @Test
    void exampleServiceIssuesUniqueIdsFromManyThreads() throws Exception {
        TestDatabase database = TestDatabase.get();
        // The tag the example uses is fixed, so the row is kept between runs; what counts is
        // where it stood when this run began.
        database.update("INSERT IGNORE INTO leaf_alloc(biz_tag, max_id, step, description) VALUES (?, 1, 1000, ?)",
                OrderIds.ORDER_TAG, "README example");
        long maxIdBefore = database.maxId(OrderIds.ORDER_TAG);
        List<String> settings = LeafApplications.baseSettings("example-" + UUID.randomUUID().toString().substring(0, 8),
                dataDir, 19501);
        settings.addAll(LeafApplications.jdbcSettings(database));
        settings.addAll(List.of("leaf.snowflake.mode=local", "leaf.snowflake.local.worker-id=" + WORKER_ID));

        long[][] orderNumbers;
        long[][] eventIds;
        SnowflakeLayout layout;
        try (ConfigurableApplicationContext application = LeafApplications.start(OrderApplication.class, settings)) {
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
                .containsExactly(WORKER_ID);
    }
}
