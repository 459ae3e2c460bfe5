package org.leafid.zookeeper.zkrecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservingWorkerIdHolder;
import org.leafid.core.worker.WorkerIdLostException;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.zookeeper.WorkerNode;
import org.leafid.zookeeper.ZkPaths;

/**
 * {@code zk_recycle} against a real ZooKeeper server (curator-test, in-process). Heartbeats and
 * sweeps run on real time here, as they do in production, with short intervals. What every
 * registry does (distinct ids, release frees the id, outage, crash and the wait past a swept id's
 * reservation) is in {@link ZkRecycleWorkerIdRegistryContractTest}; here the heartbeat, the lease, the
 * sweeper and the node versions.
 */
class ZkRecycleWorkerIdRegistryTest {

    private static final Duration REPORT_INTERVAL = Duration.ofMillis(300);
    private static final Duration LEASE = Duration.ofSeconds(2);

    private final List<AutoCloseable> resources = new ArrayList<>();
    private TestingServer server;
    private ZkPaths paths;

    @BeforeEach
    void startZookeeper() throws Exception {
        server = new TestingServer(true);
        paths = new ZkPaths("test-" + UUID.randomUUID());
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        server.close();
    }

    @Test
    void heartbeatMovesTheNodesVersionAndTimestamp() throws Exception {
        CuratorFramework client = client();
        ReservingWorkerIdHolder holder = started(client, new InstanceAddress("10.1.1.1", 8080), InstantSource.system(),
                Sleeper.system());
        String node = paths.inUse(holder.workerId());
        int firstVersion = client.checkExists().forPath(node).getVersion();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> client.checkExists().forPath(node).getVersion() > firstVersion);
        assertThat(WorkerNode.parse(node, client.getData().forPath(node)).timestamp())
                .isGreaterThan(System.currentTimeMillis());
    }

    // The contract sweeps with no lease; here the real lease keeps the id taken until it has run out.
    @Test
    void silentHolderIsSweptOnlyOnceItsLeaseHasRunOut() throws Exception {
        ReservingWorkerIdHolder silent = started(client(), new InstanceAddress("10.1.2.1", 8080),
                InstantSource.system(), Sleeper.system());
        int id = silent.workerId();
        silent.close(); // stops heartbeating without giving the id back, as a crash would
        RecycleSweeper sweeper = new RecycleSweeper(client(), paths, LEASE, Duration.ofSeconds(1));

        long started = System.nanoTime();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> sweeper.sweep() == 1);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(
                LEASE.minus(REPORT_INTERVAL.multipliedBy(2)));
        assertThat(client().checkExists().forPath(paths.notInUse(id))).isNotNull();
    }

    // In real time, with heartbeats: the contract only sees the refused record during an outage.
    @Test
    void holderCutOffFromZookeeperStopsIssuingBeforeItsIdCouldBeReusedAndResumesAfter() throws Exception {
        ReservingWorkerIdHolder holder = started(client(), new InstanceAddress("10.1.3.1", 8080),
                InstantSource.system(), Sleeper.system());
        SnowflakeGenerator generator = new SnowflakeGenerator(new SnowflakeLayout(SnowflakeLayout.DEFAULT_TWEPOCH),
                holder, InstantSource.system(), Sleeper.system(), new Random(3), Duration.ofMillis(5));
        long before = generator.nextId();
        long lastGoodHeartbeatAtLatest = System.currentTimeMillis();

        server.stop();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
            try {
                generator.nextId();
                return false;
            } catch (WorkerIdUnavailableException e) {
                return true;
            }
        });
        long stoppedAt = System.currentTimeMillis();
        // Stopped within 2 x report interval of its last heartbeat: long before the lease ends.
        assertThat(stoppedAt - lastGoodHeartbeatAtLatest).isLessThan(LEASE.toMillis());
        assertThatThrownBy(holder::lease).isInstanceOf(WorkerIdUnavailableException.class);

        server.restart();
        long after = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .ignoreException(WorkerIdUnavailableException.class).until(generator::nextId, id -> true);
        assertThat(after).isGreaterThan(before);
    }

    @Test
    void aHeartbeatThatLandedDespiteALostAnswerIsNotTakenForALoss() throws Exception {
        CuratorFramework client = client();
        InstanceAddress instance = new InstanceAddress("10.1.6.1", 8080);
        WorkerIdRegistry.Registration taken = new ZkRecycleWorkerIdRegistry(client, paths, instance,
                Duration.ofSeconds(2)).register();
        String node = paths.inUse(taken.workerId());
        taken.sink().record(taken.workerId(), 1_000);
        // The next write reaches ZooKeeper but its answer is lost: the node is a version ahead.
        client.setData().forPath(node, new WorkerNode(instance.ip(), instance.port(), 2_000).toBytes());

        taken.sink().record(taken.workerId(), 3_000);

        assertThat(WorkerNode.parse(node, client.getData().forPath(node)).timestamp()).isEqualTo(3_000);
    }

    @Test
    void aSweptIdRetakenByAnotherInstanceIsLostEvenAtTheSameNodeVersion() throws Exception {
        CuratorFramework client = client();
        WorkerIdRegistry.Registration first = new ZkRecycleWorkerIdRegistry(client, paths,
                new InstanceAddress("10.1.7.1", 8080), Duration.ofSeconds(2)).register();
        int id = first.workerId();
        first.sink().record(id, 1_000); // the node is at version 1
        // Cut off past the lease: the sweeper returns the id and another instance takes it and
        // heartbeats once, so its node is at version 1 too.
        WorkerNode other = new WorkerNode("10.1.7.2", 8080, 5_000);
        client.delete().forPath(paths.inUse(id));
        client.create().forPath(paths.inUse(id), new WorkerNode("10.1.7.2", 8080, 0).toBytes());
        client.setData().forPath(paths.inUse(id), other.toBytes());

        assertThatThrownBy(() -> first.sink().record(id, 2_000)).isInstanceOf(WorkerIdLostException.class);
        assertThat(WorkerNode.parse(paths.inUse(id), client.getData().forPath(paths.inUse(id)))).isEqualTo(other);
    }

    @Test
    void the1025thInstanceGetsAClearError() {
        CuratorFramework client = client();
        ZkRecycleWorkerIdRegistry registry = new ZkRecycleWorkerIdRegistry(client, paths,
                new InstanceAddress("10.1.5.1", 8080), Duration.ofSeconds(2));
        Set<Integer> taken = new HashSet<>();
        for (int i = 0; i < 1024; i++) {
            taken.add(registry.register().workerId());
        }
        assertThat(taken).hasSize(1024);

        assertThatThrownBy(registry::register).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("All 1024 worker ids");
    }

    /** A layout of 2 worker bits: a pool of ids 0..3; a pool made for 10 bits gives none above 3 either. */
    @Test
    void thePoolHoldsOnlyTheIdsOfTheLayoutsWorkerBits() throws Exception {
        CuratorFramework client = client();
        ZkRecycleWorkerIdRegistry narrow = new ZkRecycleWorkerIdRegistry(client, paths,
                new InstanceAddress("10.1.6.1", 8080), Duration.ofSeconds(2), 3);
        Set<Integer> taken = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            taken.add(narrow.register().workerId());
        }
        assertThat(taken).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(client.getChildren().forPath(paths.notInUse())).isEmpty();
        assertThatThrownBy(narrow::register).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("All 4 worker ids");

        ZkPaths wide = new ZkPaths(paths.name() + "-wide");
        new ZkRecycleWorkerIdRegistry(client, wide, new InstanceAddress("10.1.6.2", 8080), Duration.ofSeconds(2))
                .register(); // the 10-bit pool, id 0 taken
        ZkRecycleWorkerIdRegistry narrowOnWide = new ZkRecycleWorkerIdRegistry(client, wide,
                new InstanceAddress("10.1.6.3", 8080), Duration.ofSeconds(2), 3);
        assertThat(List.of(narrowOnWide.register().workerId(), narrowOnWide.register().workerId(),
                narrowOnWide.register().workerId())).containsExactly(1, 2, 3);
        assertThatThrownBy(narrowOnWide::register).hasMessageContaining("All 4 worker ids");
    }

    private ReservingWorkerIdHolder started(CuratorFramework client, InstanceAddress instance, InstantSource clock,
            Sleeper sleeper) {
        ZkRecycleWorkerIdRegistry registry = new ZkRecycleWorkerIdRegistry(client, paths, instance,
                Duration.ofSeconds(2));
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(registry, clock, sleeper, REPORT_INTERVAL,
                Duration.ofSeconds(10));
        holder.start();
        resources.add(holder);
        return holder;
    }

    /** A client per instance, as separate processes would have. */
    private CuratorFramework client() {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
                .sessionTimeoutMs(5_000).connectionTimeoutMs(1_000).retryPolicy(new RetryOneTime(100)).build();
        client.start();
        resources.add(client);
        return client;
    }
}
