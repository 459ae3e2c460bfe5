package org.leafid.zookeeper.zknormal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.testing.FakeClock;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservationFile;
import org.leafid.core.worker.ReservingWorkerIdHolder;
import org.leafid.core.worker.WorkerIdLostException;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.worker.WorkerLease;
import org.leafid.zookeeper.WorkerNode;
import org.leafid.zookeeper.ZkPaths;

/**
 * {@code zk_normal} against a real ZooKeeper server (curator-test, in-process): what is its own,
 * the nodes, their numbering and data, and the node writer. What every registry does (restart,
 * reservations ahead of the clock, outage, crash) is in {@link ZkNormalWorkerIdRegistryContractTest}.
 */
class ZkNormalWorkerIdRegistryTest {

    private static final Duration REPORT_INTERVAL = ZkNormalFixture.REPORT_INTERVAL;

    @TempDir
    Path dataDir;

    private ZkNormalFixture zk;
    private ZkPaths paths;
    private FakeClock clock;

    @BeforeEach
    void startZookeeper() throws Exception {
        zk = new ZkNormalFixture(dataDir);
        paths = zk.paths();
        clock = zk.clock();
    }

    @AfterEach
    void closeAll() throws Exception {
        zk.close();
    }

    @Test
    void workerIdsAreTheSequenceNumbersOfTheNodesFromZero() {
        // Leaf's numbering; a restart keeping its id is in ZkNormalWorkerIdRegistryContractTest.
        ReservingWorkerIdHolder first = started(instance("10.0.0.1", 8080), Duration.ofSeconds(5));
        ReservingWorkerIdHolder second = started(instance("10.0.0.2", 8080), Duration.ofSeconds(5));

        assertThat(first.workerId()).isZero();
        assertThat(second.workerId()).isOne();
    }

    @Test
    void aSecondLiveProcessOfTheAddressIsRefusedNamingTheHolderAndLeafsLayoutIsUntouched() throws Exception {
        InstanceAddress shared = instance("172.17.0.2", 8080);
        ReservingWorkerIdHolder first = started(shared, Duration.ofSeconds(5));

        assertThatThrownBy(() -> zk.registry(shared).register())
                .isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("held by another live process (" + shared.key() + "/")
                .hasMessageContaining("leaf.snowflake.ip or port");
        first.renew(); // the holder goes on
        // Meituan Leaf's forever/ip:port-seq nodes only; the live node is beside them.
        CuratorFramework client = zk.client();
        assertThat(client.getChildren().forPath(paths.forever())).containsExactly(shared.key() + "-0000000000");
        assertThat(client.getChildren().forPath(paths.live())).containsExactly(shared.key());
    }

    @Test
    void aRestartAfterAGracefulStopKeepsItsIdAtOnce() {
        InstanceAddress instance = instance("10.0.0.7", 8080);
        ReservingWorkerIdHolder first = started(instance, Duration.ofSeconds(5));
        int workerId = first.workerId();
        zk.generator(first).close(); // the release: the live node goes

        ReservingWorkerIdHolder restarted = started(instance, Duration.ofSeconds(5));
        assertThat(restarted.workerId()).isEqualTo(workerId);
    }

    @Test
    void aRestartAfterAKillWaitsForTheDeadSessionToEnd() throws Exception {
        InstanceAddress instance = instance("10.0.0.8", 8080);
        CuratorFramework killed = zk.client();
        int workerId = zk.registry(killed, instance).register().workerId(); // never released
        ZkNormalWorkerIdRegistry restart = new ZkNormalWorkerIdRegistry(zk.client(), paths, instance, zk.cache(instance),
                Duration.ofMillis(500), 1023, Duration.ofSeconds(30));
        ExecutorService starting = Executors.newSingleThreadExecutor();
        zk.closeLater(starting::shutdownNow);
        CountDownLatch go = new CountDownLatch(1);
        var registered = starting.submit(() -> {
            go.countDown();
            return restart.register();
        });
        go.await();
        killed.close(); // ZooKeeper ends the session, as it does a dead process's at its timeout

        assertThat(registered.get(30, TimeUnit.SECONDS).workerId()).isEqualTo(workerId);
    }

    @Test
    void aHolderWhoseLiveNodeIsAnothersStopsIssuing() throws Exception {
        InstanceAddress instance = instance("10.0.0.9", 8080);
        ReservingWorkerIdHolder holder = started(instance, Duration.ofSeconds(5));
        CuratorFramework other = zk.client();
        other.delete().forPath(paths.live(instance.key())); // e.g. its session expired while partitioned
        other.create().withMode(CreateMode.EPHEMERAL).forPath(paths.live(instance.key()),
                (instance.key() + "/another").getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(holder::renew).isInstanceOf(WorkerIdLostException.class)
                .hasMessageContaining("held by another live process (" + instance.key() + "/another");
    }

    // Pins where the reservation is kept (node data, cache file); the contract sees it only through register().
    @Test
    void reservationIsWrittenToTheNodeAndTheCacheFile() throws Exception {
        InstanceAddress instance = instance("10.0.0.3", 8080);
        ReservingWorkerIdHolder holder = started(instance, Duration.ofSeconds(5));
        long reserved = holder.lease().reservedUntilMillis();

        String node = paths.forever() + "/" + client().getChildren().forPath(paths.forever()).get(0);
        assertThat(WorkerNode.parse(node, client().getData().forPath(node)).timestamp()).isEqualTo(reserved);
        assertThat(cache(instance).read()).hasValue(new ReservationFile.Recorded(0, reserved));
        assertThat(reserved).isEqualTo(clock.millis() + 2 * REPORT_INTERVAL.toMillis());
    }

    // A node's time is the last one Leaf saw, not an exclusive bound as in the other modes: the start is 1 ms after it.
    @Test
    void nodeSlightlyAheadIsWaitedOut() throws Exception {
        InstanceAddress instance = instance("10.0.0.5", 8080);
        long recorded = clock.millis() + 2_000;
        client().create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(
                paths.forever() + "/" + instance.key() + "-",
                new WorkerNode(instance.ip(), instance.port(), recorded).toBytes());

        ReservingWorkerIdHolder holder = started(instance, Duration.ofSeconds(5));

        // The node's time may be carried by IDs already (Leaf writes the last time it saw): after it.
        assertThat(clock.millis()).isGreaterThan(recorded);
        assertThat(holder.lease().validFromMillis()).isEqualTo(recorded + 1);
    }

    @Test
    void zookeeperDownWhileRunningStopsIssuingOnceTheConfirmedWindowEndsAndItResumesWhenZookeeperIsBack()
            throws Exception {
        InstanceAddress instance = instance("10.0.0.11", 8080);
        AtomicLong nanos = new AtomicLong();
        ReservingWorkerIdHolder holder = zk.closeLater(new ReservingWorkerIdHolder(zk.registry(instance), clock, clock,
                REPORT_INTERVAL, Duration.ofSeconds(5), nanos::get));
        holder.start();
        SnowflakeGenerator generator = generator(holder);
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            assertThat(ids.add(generator.nextId())).isTrue();
        }
        WorkerLease confirmed = holder.lease();

        zk.server().stop();
        clock.advance(REPORT_INTERVAL.toMillis());
        assertThatThrownBy(holder::renew).isInstanceOf(WorkerIdUnavailableException.class);
        // The cache has the renewal (it binds this machine's next start), the lease does not.
        assertThat(holder.lease()).isEqualTo(confirmed);
        assertThat(ids.add(generator.nextId())).isTrue(); // still inside the last confirmed window
        nanos.addAndGet(2 * REPORT_INTERVAL.toNanos());
        assertThatThrownBy(generator::nextId).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("has not been confirmed by its registry");

        zk.server().restart();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .ignoreException(WorkerIdUnavailableException.class).untilAsserted(holder::renew);
        for (int i = 0; i < 1_000; i++) {
            assertThat(ids.add(generator.nextId())).isTrue();
        }
        String node = paths.forever() + "/" + client().getChildren().forPath(paths.forever()).get(0);
        assertThat(WorkerNode.parse(node, client().getData().forPath(node)).timestamp())
                .isEqualTo(holder.lease().reservedUntilMillis());
    }

    @Test
    void moreThan1024RegistrationsIsAClearStartError() throws Exception {
        CuratorFramework client = client();
        for (int i = 0; i < 1024; i++) {
            client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .forPath(paths.forever() + "/10.9.9.9:" + (i + 1) + "-",
                            new WorkerNode("10.9.9.9", i + 1, 0).toBytes());
        }

        assertThatThrownBy(() -> started(instance("10.0.0.10", 8080), Duration.ofSeconds(5)))
                .isInstanceOf(WorkerIdUnavailableException.class).hasMessageContaining("more than 1024");
    }

    /** A layout of 2 worker bits: sequences 0..3 only, whether the node is new or this instance's own. */
    @Test
    void aSequenceBeyondTheLayoutsWorkerBitsIsAClearStartError() throws Exception {
        for (int i = 0; i < 4; i++) {
            assertThat(narrow(instance("10.0.1." + i, 8080)).register().workerId()).isEqualTo(i);
        }
        assertThatThrownBy(() -> narrow(instance("10.0.1.9", 8080)).register())
                .isInstanceOf(WorkerIdUnavailableException.class).hasMessageContaining("more than 4 instances")
                .hasMessageContaining("0..3");
        // An instance registered under Leaf's 10 bits (a sequence after those above), then started with 2 bits.
        InstanceAddress registeredWide = instance("10.0.1.10", 8080);
        int wideId = zk.registry(registeredWide).register().workerId();
        assertThat(wideId).isGreaterThan(3);
        assertThatThrownBy(() -> narrow(registeredWide).register()).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("gives worker id " + wideId + ", beyond 3");
    }

    private ZkNormalWorkerIdRegistry narrow(InstanceAddress instance) {
        return new ZkNormalWorkerIdRegistry(zk.client(), paths, instance, zk.cache(instance),
                Duration.ofMillis(500), 3, Duration.ofMillis(500));
    }

    private ReservingWorkerIdHolder started(InstanceAddress instance, Duration maxStartWait) {
        return zk.started(instance, maxStartWait);
    }

    private SnowflakeGenerator generator(ReservingWorkerIdHolder holder) {
        return zk.generator(holder);
    }

    private ReservationFile cache(InstanceAddress instance) {
        return zk.cache(instance);
    }

    private CuratorFramework client() {
        return zk.client();
    }

    private static InstanceAddress instance(String ip, int port) {
        return new InstanceAddress(ip, port);
    }
}
