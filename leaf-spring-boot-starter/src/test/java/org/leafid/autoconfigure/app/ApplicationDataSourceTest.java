package org.leafid.autoconfigure.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.pool.DruidDataSource;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.autoconfigure.jdbc.LeafDataSource;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.shard.ShardIdGenerator;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * An application with a DataSource of its own and no {@code leaf.jdbc.url}: Leaf keeps
 * {@code leaf_alloc} in that database, through that very pool, and opens none of its own.
 */
class ApplicationDataSourceTest {

    private static final int THREADS = 4;
    private static final int IDS_PER_THREAD = 5_000;
    private static final long FIRST_MAX_ID = 1_000;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ApplicationWithDataSource {

        @Bean(destroyMethod = "close")
        DruidDataSource dataSource() {
            return TestDatabase.get().newPool();
        }
    }

    @TempDir
    Path dataDir;

    @Test
    void segmentIdsComeFromTheApplicationsDatabaseThroughItsPool() throws Exception {
        TestDatabase database = TestDatabase.get();
        String tag = database.newTag("app-datasource", FIRST_MAX_ID, 100);
        List<String> settings = LeafApplications.baseSettings("app-ds-" + UUID.randomUUID().toString().substring(0, 8),
                dataDir, 19520);
        settings.add("leaf.snowflake.enable=false");
        try (ConfigurableApplicationContext application =
                LeafApplications.start(ApplicationWithDataSource.class, settings)) {
            LeafDataSource leaf = application.getBean(LeafDataSource.class);
            assertThat(leaf.dataSource()).isSameAs(application.getBean("dataSource"));
            assertThat(application.getBeansOfType(DataSource.class)).hasSize(1);
            assertThat(leaf.own()).as("Leaf must leave the application's pool to the application").isFalse();
            assertThat(leaf.embedded()).isFalse();
            // Shard mode is not switched on by itself here: the application's database has no id_alloc.
            assertThat(application.getBeansOfType(ShardIdGenerator.class)).isEmpty();

            SegmentAllocator allocator = application.getBean(SegmentAllocator.class);
            long[][] ids = ConcurrentIds.take(THREADS, IDS_PER_THREAD, () -> allocator.nextId(tag));

            long[] all = ConcurrentIds.assertNoDuplicate(ids);
            assertThat(all).hasSize(THREADS * IDS_PER_THREAD);
            ConcurrentIds.assertIncreasingPerThread(ids);
            long maxIdNow = database.maxId(tag);
            assertThat(maxIdNow).as("max_id of %s in the application's database", tag)
                    .isGreaterThanOrEqualTo(FIRST_MAX_ID + all.length);
            assertThat(all[0]).isGreaterThanOrEqualTo(FIRST_MAX_ID);
            assertThat(all[all.length - 1]).isLessThan(maxIdNow);
        } finally {
            database.deleteTag(tag);
        }
    }
}
