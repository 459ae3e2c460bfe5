package org.leafid.autoconfigure.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentStore;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.testing.InMemorySegmentStore;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/** A bean the application defines takes the place of Leaf's of the same type, which is then not made. */
class ApplicationBeansTest {

    private static final int THREADS = 4;
    private static final int IDS_PER_THREAD = 5_000;
    private static final int OWN_WORKER_ID = 42;

    /** A worker-id scheme of the application's own: one fixed id, nothing recorded. */
    record FixedWorkerIdRegistry(int workerId) implements WorkerIdRegistry {

        @Override
        public Registration register() {
            return new Registration(workerId, 0, (id, reservedUntilMillis) -> {});
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ApplicationWithRegistry {

        @Bean
        WorkerIdRegistry fixedWorkerIds() {
            return new FixedWorkerIdRegistry(OWN_WORKER_ID);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ApplicationWithSegmentStore {

        @Bean
        InMemorySegmentStore ownStore() {
            return new InMemorySegmentStore().put("own-tag", 500, 10);
        }
    }

    @TempDir
    Path dataDir;

    @Test
    void applicationsWorkerIdRegistryReplacesTheModesRegistry() throws Exception {
        List<String> settings = settings(19530);
        // Leaf's local registry would hold worker id 3
        settings.addAll(List.of("leaf.segment.enable=false", "leaf.snowflake.mode=local",
                "leaf.snowflake.local.worker-id=3"));
        try (ConfigurableApplicationContext application =
                LeafApplications.start(ApplicationWithRegistry.class, settings)) {
            assertThat(application.getBeansOfType(WorkerIdRegistry.class))
                    .containsOnlyKeys("fixedWorkerIds")
                    .containsValue(application.getBean(FixedWorkerIdRegistry.class));
            assertThat(application.getBean(WorkerIdHolder.class).lease().workerId()).isEqualTo(OWN_WORKER_ID);

            SnowflakeGenerator generator = application.getBean(SnowflakeGenerator.class);
            SnowflakeLayout layout = application.getBean(SnowflakeLayout.class);
            long[][] ids = ConcurrentIds.take(THREADS, IDS_PER_THREAD, generator::nextId);
            long[] all = ConcurrentIds.assertNoDuplicate(ids);
            assertThat(all).hasSize(THREADS * IDS_PER_THREAD);
            assertThat(Arrays.stream(all).map(id -> layout.decode(id).workerId()).distinct().toArray())
                    .containsExactly(OWN_WORKER_ID);
        }
    }

    @Test
    void applicationsSegmentStoreReplacesLeafAlloc() throws Exception {
        List<String> settings = settings(19531);
        settings.add("leaf.snowflake.enable=false");
        try (ConfigurableApplicationContext application =
                LeafApplications.start(ApplicationWithSegmentStore.class, settings)) {
            InMemorySegmentStore own = application.getBean(InMemorySegmentStore.class);
            assertThat(application.getBeansOfType(SegmentStore.class)).containsOnlyKeys("ownStore");
            assertThat(application.getBeansOfType(LeafAllocRepository.class)).isEmpty();

            SegmentAllocator allocator = application.getBean(SegmentAllocator.class);
            long[][] ids = ConcurrentIds.take(THREADS, IDS_PER_THREAD, () -> allocator.nextId("own-tag"));
            long[] all = ConcurrentIds.assertNoDuplicate(ids);
            assertThat(all).hasSize(THREADS * IDS_PER_THREAD);
            ConcurrentIds.assertIncreasingPerThread(ids);
            assertThat(all[0]).isGreaterThanOrEqualTo(500);
            assertThat(all[all.length - 1]).isLessThan(own.maxId("own-tag"));
            assertThat(own.reserveCount("own-tag")).isPositive();
            // Nothing used Leaf's database, so the (lazy) pool was never opened: no H2 file either.
            assertThat(application.getBeanFactory().containsSingleton("leafDataSource")).isFalse();
            assertThat(dataDir.resolve("leaf-db.mv.db")).doesNotExist();
        }
    }

    /** The mode's parts are not made beside the application's registry: no ZooKeeper session at all. */
    @Test
    void applicationsWorkerIdRegistryInAZookeeperModeOpensNoZookeeperSession() throws Exception {
        List<String> settings = settings(19532);
        // Nothing listens on port 1: a Curator client made here would only log connection failures.
        settings.addAll(List.of("leaf.segment.enable=false", "leaf.snowflake.mode=zk_normal",
                "leaf.snowflake.zk.address=127.0.0.1:1"));
        try (ConfigurableApplicationContext application =
                LeafApplications.start(ApplicationWithRegistry.class, settings)) {
            assertThat(application.getBeansOfType(CuratorFramework.class)).isEmpty();
            assertThat(application.getBeansOfType(WorkerIdRegistry.class)).containsOnlyKeys("fixedWorkerIds");
            assertThat(application.getBean(WorkerIdHolder.class).lease().workerId()).isEqualTo(OWN_WORKER_ID);
        }
    }

    private List<String> settings(int port) {
        String name = "own-beans-" + UUID.randomUUID().toString().substring(0, 8);
        return LeafApplications.baseSettings(name, dataDir, port);
    }
}
