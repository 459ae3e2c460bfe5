package org.leafid.zookeeper.zknormal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.testing.FakeClock;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservationFile;
import org.leafid.core.worker.ReservingWorkerIdHolder;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.zookeeper.ZkPaths;

/**
 * A real in-process ZooKeeper, a fake clock, and the {@code zk_normal} pieces tests build on
 * them, each instance with its own client and cache files under {@code dir}; everything made
 * here is closed in reverse order by {@link #close()}.
 */
final class ZkNormalFixture implements AutoCloseable {

    static final Duration REPORT_INTERVAL = Duration.ofSeconds(3);
    static final SnowflakeLayout LAYOUT = new SnowflakeLayout(SnowflakeLayout.DEFAULT_TWEPOCH);

    private final Path dir;
    private final TestingServer server;
    private final ZkPaths paths = new ZkPaths("test-" + UUID.randomUUID());
    private final FakeClock clock = new FakeClock(System.currentTimeMillis());
    private final List<AutoCloseable> resources = new ArrayList<>();

    ZkNormalFixture(Path dir) throws Exception {
        this.dir = dir;
        this.server = new TestingServer(true);
    }

    TestingServer server() {
        return server;
    }

    ZkPaths paths() {
        return paths;
    }

    FakeClock clock() {
        return clock;
    }

    /** Closed with the fixture, before what was made earlier. */
    <T extends AutoCloseable> T closeLater(T resource) {
        resources.add(resource);
        return resource;
    }

    /** A new client per use, as separate instances would have. */
    CuratorFramework client() {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
                .sessionTimeoutMs(5_000).connectionTimeoutMs(500).retryPolicy(new RetryOneTime(100)).build();
        client.start();
        return closeLater(client);
    }

    ZkNormalWorkerIdRegistry registry(InstanceAddress instance) {
        return registry(client(), instance);
    }

    /** On {@code client}, whose session is the process's: closing it ends the process for ZooKeeper. */
    ZkNormalWorkerIdRegistry registry(CuratorFramework client, InstanceAddress instance) {
        return new ZkNormalWorkerIdRegistry(client, paths, instance, cache(instance), Duration.ofMillis(500));
    }

    ReservingWorkerIdHolder started(InstanceAddress instance, Duration maxStartWait) {
        return started(registry(instance), maxStartWait);
    }

    ReservingWorkerIdHolder started(WorkerIdRegistry registry, Duration maxStartWait) {
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(registry, clock, clock, REPORT_INTERVAL,
                maxStartWait);
        holder.start();
        return closeLater(holder);
    }

    SnowflakeGenerator generator(ReservingWorkerIdHolder holder) {
        return new SnowflakeGenerator(LAYOUT, holder, clock, clock, new Random(7), Duration.ofMillis(5));
    }

    /** This server's cache file of the instance. */
    ReservationFile cache(InstanceAddress instance) {
        return new WorkerCacheFiles(dir.resolve("data").resolve(instance.ip()), paths.name(), instance.port())
                .registry();
    }

    /** Meituan Leaf's {@code java.io.tmpdir} for the instance, a directory of the test (never the real tmpdir). */
    Path leafTmpdir(InstanceAddress instance) {
        return dir.resolve("leaf-tmpdir").resolve(instance.ip());
    }

    @Override
    public void close() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        server.close();
    }
}
