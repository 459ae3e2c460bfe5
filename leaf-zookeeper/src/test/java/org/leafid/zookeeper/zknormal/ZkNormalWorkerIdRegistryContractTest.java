package org.leafid.zookeeper.zknormal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.testing.WorkerIdRegistryOutageContractTest;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerIdRegistry;

/**
 * The worker-id registry contract for {@code zk_normal} on a real in-process ZooKeeper
 * (curator-test), stopped and restarted for outages; each instance has its own client and cache
 * files, and renewals write the node in the renewing thread.
 */
class ZkNormalWorkerIdRegistryContractTest extends WorkerIdRegistryOutageContractTest {

    @TempDir
    Path dir;

    private ZkNormalFixture zk;
    private final Map<Integer, List<CuratorFramework>> clients = new HashMap<>();

    @BeforeEach
    void startZookeeper() throws Exception {
        zk = new ZkNormalFixture(dir);
    }

    @AfterEach
    void closeZookeeper() throws Exception {
        zk.close();
    }

    ZkNormalWorkerIdRegistryContractTest() {
        super(Restart.KEEPS_ID);
    }

    @Override
    protected WorkerIdRegistry registry(int instance) {
        CuratorFramework client = zk.client();
        clients.computeIfAbsent(instance, i -> new ArrayList<>()).add(client);
        return zk.registry(client, address(instance));
    }

    /** The instance's earlier processes' sessions end, as ZooKeeper ends a dead one's at its timeout. */
    @Override
    protected void abandon(int instance) {
        List<CuratorFramework> sessions = clients.getOrDefault(instance, List.of());
        sessions.forEach(CuratorFramework::close);
        sessions.clear();
    }

    @Override
    protected SameAddress sameAddress() {
        return SameAddress.REFUSED;
    }

    @Override
    protected void cutBackend() {
        try {
            zk.server().stop();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop ZooKeeper", e);
        }
    }

    @Override
    protected void restoreBackend() {
        try {
            zk.server().restart();
        } catch (Exception e) {
            throw new IllegalStateException("could not restart ZooKeeper", e);
        }
    }

    /** The key, and both cache files looked for: this server's and Meituan Leaf's. */
    @Override
    protected List<String> outageErrorNames(int instance) {
        return List.of("leaf.snowflake.zk.address", "no cached id is safe", "start ZooKeeper or fix the address",
                "start again");
    }

    private static InstanceAddress address(int instance) {
        return new InstanceAddress("10.3.0." + instance, 8080);
    }
}
