package org.leafid.autoconfigure.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.autoconfigure.jdbc.LeafDataSource;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentStore;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.zookeeper.ZkPaths;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/** A mode switched off makes none of its beans and opens none of its connections. */
class SwitchesTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class LeafApplication {}

    @TempDir
    Path dataDir;

    private final String name = "switches-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void segmentOffMakesNoAllocatorAndOpensNoDatabase() throws Exception {
        // No leaf.jdbc.url and no DataSource: were a database opened, it would be the H2 file in the data dir.
        List<String> settings = LeafApplications.baseSettings(name, dataDir, 19540);
        settings.addAll(List.of("leaf.segment.enable=false", "leaf.snowflake.mode=local"));
        try (ConfigurableApplicationContext application = LeafApplications.start(LeafApplication.class, settings)) {
            assertThat(application.getBeansOfType(SegmentAllocator.class)).isEmpty();
            assertThat(application.getBeansOfType(SegmentStore.class)).isEmpty();
            assertThat(application.getBeansOfType(LeafDataSource.class)).isEmpty();
            assertThat(application.getBeansOfType(SqlSessionFactory.class)).isEmpty();
            assertThat(databaseFiles()).isEmpty();
            // snowflake, still on, works
            SnowflakeGenerator generator = application.getBean(SnowflakeGenerator.class);
            long[] ids = ConcurrentIds.assertNoDuplicate(ConcurrentIds.take(4, 5_000, generator::nextId));
            assertThat(ids).hasSize(20_000);
        }
        assertThat(databaseFiles()).isEmpty();
    }

    @Test
    void snowflakeOffMakesNoHolderAndNoZookeeperClientEvenWithAnAddress() throws Exception {
        TestDatabase database = TestDatabase.get();
        String tag = database.newTag("switches", 1, 100);
        try (TestingServer zookeeper = new TestingServer(true)) {
            // with an address and no mode, the mode would be zk_normal
            List<String> settings = LeafApplications.baseSettings(name, dataDir, 19541);
            settings.addAll(List.of("leaf.snowflake.enable=false",
                    "leaf.snowflake.zk.address=" + zookeeper.getConnectString()));
            settings.addAll(LeafApplications.jdbcSettings(database));
            try (ConfigurableApplicationContext application = LeafApplications.start(LeafApplication.class, settings)) {
                assertThat(application.getBeansOfType(WorkerIdHolder.class)).isEmpty();
                assertThat(application.getBeansOfType(WorkerIdRegistry.class)).isEmpty();
                assertThat(application.getBeansOfType(SnowflakeGenerator.class)).isEmpty();
                assertThat(application.getBeansOfType(CuratorFramework.class)).isEmpty();
                try (CuratorFramework zk = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(),
                        new RetryOneTime(100))) {
                    zk.start();
                    assertThat(zk.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
                    assertThat(zk.checkExists().forPath(new ZkPaths(name).root())).isNull();
                }
                // segment, still on, works
                SegmentAllocator allocator = application.getBean(SegmentAllocator.class);
                long[] ids = ConcurrentIds.assertNoDuplicate(ConcurrentIds.take(4, 5_000, () -> allocator.nextId(tag)));
                assertThat(ids).hasSize(20_000);
                assertThat(ids[0]).isPositive();
            }
        } finally {
            database.deleteTag(tag);
        }
    }

    /** H2's files ({@code *.mv.db}, {@code *.trace.db}) anywhere under the data dir. */
    private List<Path> databaseFiles() throws IOException {
        try (Stream<Path> files = Files.walk(dataDir)) {
            return files.filter(file -> file.getFileName().toString().contains(".db")).toList();
        }
    }
}
