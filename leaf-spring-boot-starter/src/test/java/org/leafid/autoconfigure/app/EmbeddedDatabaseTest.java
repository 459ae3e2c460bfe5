package org.leafid.autoconfigure.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.autoconfigure.jdbc.LeafDataSource;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.shard.ShardId;
import org.leafid.core.shard.ShardIdGenerator;
import org.leafid.jdbc.EmbeddedDatabase;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * No {@code leaf.jdbc.url} and no DataSource, with H2 on the classpath: Leaf keeps
 * {@code leaf_alloc} in an H2 file under {@code leaf.data-dir}, created with the sample tag, and
 * a restarted application goes on from where the file says, never repeating an ID.
 */
class EmbeddedDatabaseTest {

    /** The tag the embedded schema creates (db/h2-schema.sql of leaf-jdbc). */
    private static final String SAMPLE_TAG = "leaf-segment-test";
    /** The shard-mode app the embedded schema creates. */
    private static final int SAMPLE_APP = 1;
    private static final int THREADS = 4;
    private static final int IDS_PER_THREAD = 5_000;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ApplicationWithoutDatabase {}

    @TempDir
    Path dataDir;

    @Test
    void embeddedDatabaseIssuesIdsThatARestartDoesNotRepeat() throws Exception {
        String name = "embedded-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> settings = LeafApplications.baseSettings(name, dataDir, 19550);
        settings.add("leaf.snowflake.enable=false");

        long[][] firstRun = issue(settings);
        assertThat(EmbeddedDatabase.file(dataDir)).isRegularFile();
        long[][] secondRun = issue(settings);

        long[] first = ConcurrentIds.assertNoDuplicate(firstRun);
        long[] second = ConcurrentIds.assertNoDuplicate(secondRun);
        assertThat(ConcurrentIds.assertNoDuplicate(first, second)).hasSize(2 * THREADS * IDS_PER_THREAD);
        // the restart starts a block past everything the first run reserved
        assertThat(second[0]).isGreaterThan(first[first.length - 1]);
    }

    private long[][] issue(List<String> settings) throws Exception {
        try (ConfigurableApplicationContext application =
                LeafApplications.start(ApplicationWithoutDatabase.class, settings)) {
            LeafDataSource leaf = application.getBean(LeafDataSource.class);
            assertThat(leaf.embedded()).isTrue();
            assertThat(leaf.own()).isTrue();
            assertThat(leaf.url()).isEqualTo(EmbeddedDatabase.url(dataDir));
            SegmentAllocator allocator = application.getBean(SegmentAllocator.class);
            long[][] ids = ConcurrentIds.take(THREADS, IDS_PER_THREAD, () -> allocator.nextId(SAMPLE_TAG));
            ConcurrentIds.assertIncreasingPerThread(ids);
            // Shard mode comes on by itself with the embedded database, which holds the sample app 1.
            ShardIdGenerator shard = application.getBean(ShardIdGenerator.class);
            long[] shardIds = ConcurrentIds.assertNoDuplicate(
                    ConcurrentIds.take(THREADS, 1_000, () -> shard.nextId(SAMPLE_APP, null)));
            assertThat(Arrays.stream(shardIds).map(id -> ShardId.decode(id).appId()).distinct().toArray())
                    .containsExactly(SAMPLE_APP);
            assertThat(ShardId.decode(shard.nextId(SAMPLE_APP, "alice@example.com")).shardId())
                    .isEqualTo(Math.abs("alice@example.com".hashCode()) % 64);
            return ids;
        }
    }
}
