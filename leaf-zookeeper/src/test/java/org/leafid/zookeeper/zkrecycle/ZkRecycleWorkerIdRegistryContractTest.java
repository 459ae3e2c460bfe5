package org.leafid.zookeeper.zkrecycle;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.leafid.testing.WorkerIdRegistryOutageContractTest;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.zookeeper.ZkPaths;

/**
 * The worker-id registry contract for {@code zk_recycle} on a real in-process ZooKeeper
 * (curator-test), stopped and restarted for outages; each instance has its own client. Ids of
 * crashed holders are returned by a real {@link RecycleSweeper}.
 */
class ZkRecycleWorkerIdRegistryContractTest extends WorkerIdRegistryOutageContractTest {

    private static final Duration CONNECT_TIMEOUT = Duration.ofMillis(500);

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final ZkPaths paths = new ZkPaths("test-" + UUID.randomUUID());
    private TestingServer server;

    @BeforeEach
    void startZookeeper() throws Exception {
        server = new TestingServer(true);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        server.close();
    }

    ZkRecycleWorkerIdRegistryContractTest() {
        super(Restart.RELEASE_FREES_ID);
    }

    @Override
    protected WorkerIdRegistry registry(int instance) {
        return new ZkRecycleWorkerIdRegistry(client(), paths, new InstanceAddress("10.4.0." + instance, 8080),
                CONNECT_TIMEOUT);
    }

    @Override
    protected void cutBackend() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop ZooKeeper", e);
        }
    }

    @Override
    protected void restoreBackend() {
        try {
            server.restart();
        } catch (Exception e) {
            throw new IllegalStateException("could not restart ZooKeeper", e);
        }
    }

    @Override
    protected List<String> outageErrorNames(int instance) {
        return List.of("leaf.snowflake.zk.address", "zk_recycle needs it", "Start ZooKeeper or fix the address");
    }

    /**
     * A sweeper with no lease returns every id whose heartbeat is older than ZooKeeper's "now";
     * the contract calls this only when the crashed holder's id is the one held. ZooKeeper's
     * clock is real, so the wait for it to pass the last heartbeat's mtime is bounded, not faked.
     */
    @Override
    protected void sweepAbandoned() {
        RecycleSweeper sweeper = new RecycleSweeper(client(), paths, Duration.ZERO, Duration.ofDays(1));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> sweeper.sweep() == 1);
    }

    /** A client per instance, as separate processes would have. */
    private CuratorFramework client() {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
                .sessionTimeoutMs(5_000).connectionTimeoutMs(500).retryPolicy(new RetryOneTime(100)).build();
        client.start();
        resources.add(client);
        return client;
    }
}
