package org.leafid.server.worker.zk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.WorkerIdUnavailableException;
import org.leafid.core.snowflake.ReservationAheadOfClockException;
import org.leafid.core.snowflake.ReservingWorkerIdHolder;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.testing.FakeClock;
import org.leafid.server.worker.InstanceAddress;
import org.leafid.server.worker.ReservationFile;
import org.leafid.server.worker.WorkerCacheFiles;

/** {@code zk_normal} against a real ZooKeeper server (curator-test, in-process). */
class ZookeeperNormalRegistryTest {

    private static final Duration REPORT_INTERVAL = Duration.ofSeconds(3);
    private static final SnowflakeLayout LAYOUT = new SnowflakeLayout(SnowflakeLayout.DEFAULT_TWEPOCH);

    @TempDir
    Path dataDir;

    private final List<AutoCloseable> resources = new ArrayList<>();
    private TestingServer server;
    private ZkPaths paths;
    private FakeClock clock;

    @BeforeEach
    void startZookeeper() throws Exception {
        server = new TestingServer(true);
        paths = new ZkPaths("test-" + UUID.randomUUID());
        clock = new FakeClock(System.currentTimeMillis());
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        server.close();
    }

    @Test
    void firstInstanceGetsZeroSecondGetsOneAndARestartGetsZeroAgain() {
        ReservingWorkerIdHolder first = started(instance("10.0.0.1", 8080), Duration.ofSeconds(5));
        ReservingWorkerIdHolder second = started(instance("10.0.0.2", 8080), Duration.ofSeconds(5));
        assertThat(first.workerId()).isZero();
        assertThat(second.workerId()).isOne();

        first.release(clock.millis());
        ReservingWorkerIdHolder restarted = started(instance("10.0.0.1", 8080), Duration.ofSeconds(5));

        assertThat(restarted.workerId()).isZero();
    }

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

    @Test
    void nodeReservedFarInTheFutureRefusesTheStart() throws Exception {
        InstanceAddress instance = instance("10.0.0.4", 8080);
        client().create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(
                paths.forever() + "/" + instance.key() + "-",
                new WorkerNode(instance.ip(), instance.port(), clock.millis() + 60_000).toBytes());

        assertThatThrownBy(() -> started(instance, Duration.ofSeconds(5)))
                .isInstanceOf(ReservationAheadOfClockException.class).hasMessageContaining("ahead of the clock");
    }

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
    void zookeeperDownAtStartUsesAValidCacheFile() throws Exception {
        InstanceAddress instance = instance("10.0.0.6", 8080);
        ReservingWorkerIdHolder before = started(instance, Duration.ofSeconds(5));
        int workerId = before.workerId();
        before.release(clock.millis());
        server.stop();

        ReservingWorkerIdHolder offline = started(instance, Duration.ofSeconds(5));

        assertThat(offline.workerId()).isEqualTo(workerId);
        assertThat(offline.lease().covers(clock.millis())).isTrue();
    }

    @Test
    void zookeeperDownAtStartWithACacheReservedFarAheadRefuses() throws Exception {
        InstanceAddress instance = instance("10.0.0.7", 8080);
        cache(instance).record(3, clock.millis() + 60_000);
        server.stop();

        assertThatThrownBy(() -> started(instance, Duration.ofSeconds(5)))
                .isInstanceOf(ReservationAheadOfClockException.class);
    }

    @Test
    void zookeeperDownAtStartWithoutACacheFailsClearly() throws Exception {
        server.stop();

        assertThatThrownBy(() -> started(instance("10.0.0.8", 8080), Duration.ofSeconds(5)))
                .isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("leaf.snowflake.zk.address").hasMessageContaining("no cache file")
                .hasMessageContaining(cache(instance("10.0.0.8", 8080)).path().toString())
                .hasMessageContaining(leafCache(instance("10.0.0.8", 8080)).path().toString());
    }

    @Test
    void restartWithTheClockSteppedBackTwoSecondsRepeatsNoId() {
        // Leaf issue #216: a restart with the clock 2 s behind, less than the report interval.
        InstanceAddress instance = instance("10.0.0.9", 8080);
        for (boolean crash : new boolean[] {false, true}) {
            ReservingWorkerIdHolder holder = started(instance, Duration.ofSeconds(10));
            SnowflakeGenerator generator = generator(holder);
            long lastBefore = 0;
            for (int i = 0; i < 50_000; i++) {
                lastBefore = generator.nextId();
            }
            if (crash) {
                holder.close(); // no release: the reservation stays as renewed
            } else {
                generator.close();
            }
            clock.stepBack(2_000);

            ReservingWorkerIdHolder again = started(instance, Duration.ofSeconds(10));
            SnowflakeGenerator after = generator(again);
            for (int i = 0; i < 50_000; i++) {
                assertThat(after.nextId()).isGreaterThan(lastBefore);
            }
            after.close();
        }
    }

    @Test
    void aStalledNodeWriteDoesNotHoldUpRenewalsSoIssuingGoesOn() throws Exception {
        // A partitioned ZooKeeper can block a write for seconds; renewals must not wait for it.
        InstanceAddress instance = instance("10.0.0.11", 8080);
        CountDownLatch zookeeperAnswers = new CountDownLatch(1);
        ExecutorService stalledWriter = Executors.newSingleThreadExecutor();
        resources.add(stalledWriter::shutdownNow);
        stalledWriter.execute(() -> {
            try {
                zookeeperAnswers.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        ZookeeperNormalRegistry registry = new ZookeeperNormalRegistry(client(), paths, instance, cache(instance),
                leafCache(instance), Duration.ofMillis(500), stalledWriter);
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(registry, clock, clock, REPORT_INTERVAL,
                Duration.ofSeconds(5));
        holder.start();
        resources.add(holder);
        SnowflakeGenerator generator = generator(holder);
        long firstReservation = holder.lease().reservedUntilMillis();
        Set<Long> ids = new HashSet<>();

        for (int renewal = 0; renewal < 10; renewal++) {
            clock.advance(REPORT_INTERVAL.toMillis());
            holder.renew();
            for (int i = 0; i < 1_000; i++) {
                assertThat(ids.add(generator.nextId())).isTrue();
            }
        }

        long reserved = holder.lease().reservedUntilMillis();
        assertThat(reserved).isGreaterThan(firstReservation + 9 * REPORT_INTERVAL.toMillis());
        assertThat(cache(instance).read()).hasValue(new ReservationFile.Recorded(holder.workerId(), reserved));
        zookeeperAnswers.countDown();
        stalledWriter.submit(() -> { }).get(10, TimeUnit.SECONDS); // the queued write has run
        holder.renew(); // the writer is free again: this renewal reaches the node
        stalledWriter.shutdown();
        assertThat(stalledWriter.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        String node = paths.forever() + "/" + client().getChildren().forPath(paths.forever()).get(0);
        assertThat(WorkerNode.parse(node, client().getData().forPath(node)).timestamp())
                .isGreaterThanOrEqualTo(reserved);
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

    private ReservingWorkerIdHolder started(InstanceAddress instance, Duration maxStartWait) {
        ZookeeperNormalRegistry registry = new ZookeeperNormalRegistry(client(), paths, instance, cache(instance),
                leafCache(instance), Duration.ofMillis(500), Runnable::run);
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(registry, clock, clock, REPORT_INTERVAL,
                maxStartWait);
        holder.start();
        resources.add(holder);
        return holder;
    }

    private SnowflakeGenerator generator(ReservingWorkerIdHolder holder) {
        return new SnowflakeGenerator(LAYOUT, holder, clock, clock, new Random(7), Duration.ofMillis(5));
    }

    private ReservationFile cache(InstanceAddress instance) {
        return new WorkerCacheFiles(dataDir.resolve(instance.ip()), paths.name(), instance.port()).registry();
    }

    /** Meituan Leaf's cache file of the instance, in a directory of the test (never the real tmpdir). */
    private MeituanLeafCacheFile leafCache(InstanceAddress instance) {
        return MeituanLeafCacheFile.of(dataDir.resolve("leaf-tmpdir").resolve(instance.ip()).toString(), paths.name(),
                instance.port());
    }

    /** A new client per use, as separate instances would have. */
    private CuratorFramework client() {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
                .sessionTimeoutMs(5_000).connectionTimeoutMs(500).retryPolicy(new RetryOneTime(100)).build();
        client.start();
        resources.add(client);
        return client;
    }

    private static InstanceAddress instance(String ip, int port) {
        return new InstanceAddress(ip, port);
    }
}
