package org.leafid.zookeeper.zknormal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeId;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.testing.FakeClock;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservationFile;
import org.leafid.core.worker.ReservingWorkerIdHolder;
import org.leafid.core.worker.WorkerIdRegistry.Registration;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.testing.zookeeper.MeituanLeafNodes;
import org.slf4j.LoggerFactory;

/**
 * {@code zk_normal} as a drop-in for Meituan Leaf, against a real ZooKeeper (curator-test)
 * holding registrations laid out exactly as Leaf's {@code SnowflakeZookeeperHolder} makes them:
 * taking one over, Leaf's cache file with ZooKeeper down, and a node Leaf itself starts on again.
 */
class ZkNormalLeafDropInTest {

    private static final Duration REPORT_INTERVAL = ZkNormalFixture.REPORT_INTERVAL;
    private static final SnowflakeLayout LAYOUT = ZkNormalFixture.LAYOUT;

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger registryLogger = (Logger) LoggerFactory.getLogger(ZkNormalWorkerIdRegistry.class);
    private ZkNormalFixture zk;
    private FakeClock clock;
    private MeituanLeafNodes leaf;

    @BeforeEach
    void startZookeeper() throws Exception {
        zk = new ZkNormalFixture(dir);
        clock = zk.clock();
        leaf = new MeituanLeafNodes(zk.client(), zk.paths().name());
        log.start();
        registryLogger.addAppender(log);
    }

    @AfterEach
    void closeAll() throws Exception {
        registryLogger.detachAppender(log);
        zk.close();
    }

    @Test
    void leafRegistrationIsTakenOverWithItsWorkerIdAndIdsComeOnlyAfterItsTimestamp() throws Exception {
        long leafSaw = clock.millis(); // Leaf stopped right after its last report
        leaf.register("10.0.0.1", 8080, leafSaw - 60_000);
        String leafNode = leaf.register("10.0.0.5", 8080, leafSaw);
        leaf.register("10.0.0.2", 8080, leafSaw - 5_000);
        InstanceAddress instance = new InstanceAddress("10.0.0.5", 8080);

        Registration registration = registry(instance).register();

        assertThat(registration.workerId()).isEqualTo(MeituanLeafNodes.workerId(leafNode)).isEqualTo(1);
        // Leaf's timestamp is the last time it saw, which its IDs may carry: ours start just after.
        assertThat(registration.recordedReservationMillis()).isEqualTo(leafSaw + 1);
        // That process stops (one live process per address), leaving the reservation it read.
        registration.sink().release(registration.workerId(), registration.recordedReservationMillis());
        ReservingWorkerIdHolder holder = started(instance);
        SnowflakeGenerator generator = generator(holder);
        for (int i = 0; i < 20_000; i++) {
            SnowflakeId id = LAYOUT.decode(generator.nextId());
            assertThat(id.workerId()).isEqualTo(1);
            assertThat(id.timestampMillis()).isGreaterThan(leafSaw);
        }
        assertThat(leaf.count()).isEqualTo(3); // taken over, none added
    }

    @Test
    void leafTimestampAheadOfTheClockIsWaitedOutBeforeTheFirstId() throws Exception {
        long leafSaw = clock.millis() + 1_500; // this machine's clock is behind Leaf's last report
        leaf.register("10.0.0.5", 8080, leafSaw);

        ReservingWorkerIdHolder holder = started(new InstanceAddress("10.0.0.5", 8080));

        assertThat(LAYOUT.decode(generator(holder).nextId()).timestampMillis()).isGreaterThan(leafSaw);
    }

    @Test
    void instancesBesideLeafRegistrationsNeverShareAWorkerId() throws Exception {
        int leafHere = MeituanLeafNodes.workerId(leaf.register("10.0.0.5", 8080, clock.millis() - 1_000));
        int leafElsewhere = MeituanLeafNodes.workerId(leaf.register("10.0.0.6", 8080, clock.millis() - 1_000));

        ReservingWorkerIdHolder first = started(new InstanceAddress("10.0.0.5", 8081));
        ReservingWorkerIdHolder second = started(new InstanceAddress("10.0.0.5", 8082));
        ReservingWorkerIdHolder takeover = started(new InstanceAddress("10.0.0.5", 8080));

        assertThat(takeover.workerId()).isEqualTo(leafHere);
        assertThat(Set.of(first.workerId(), second.workerId(), takeover.workerId(), leafElsewhere)).hasSize(4);
        Set<Long> ids = new HashSet<>();
        for (ReservingWorkerIdHolder holder : List.of(first, second, takeover)) {
            SnowflakeGenerator generator = generator(holder);
            for (int i = 0; i < 5_000; i++) {
                assertThat(ids.add(generator.nextId())).isTrue();
            }
        }
    }

    @Test
    void registrationsAtTheSameTimeGetDistinctWorkerIds() throws Exception {
        Set<Integer> leafIds = Set.of(MeituanLeafNodes.workerId(leaf.register("10.0.0.1", 8080, clock.millis())),
                MeituanLeafNodes.workerId(leaf.register("10.0.0.2", 8080, clock.millis())));
        int instances = 8;
        List<ZkNormalWorkerIdRegistry> registries = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            registries.add(registry(new InstanceAddress("10.0.1." + i, 8080)));
        }
        ExecutorService threads = Executors.newFixedThreadPool(instances);
        zk.closeLater(threads::shutdownNow);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> workerIds = new ArrayList<>();
        for (ZkNormalWorkerIdRegistry registry : registries) {
            workerIds.add(threads.submit(() -> {
                go.await();
                return registry.register().workerId();
            }));
        }

        go.countDown();
        Set<Integer> distinct = new HashSet<>();
        for (Future<Integer> workerId : workerIds) {
            distinct.add(workerId.get(30, TimeUnit.SECONDS));
        }

        assertThat(distinct).hasSize(instances).doesNotContainAnyElementsOf(leafIds);
        assertThat(leaf.count()).isEqualTo(instances + leafIds.size());
    }

    @Test
    void zookeeperDownAtStartFailsNamingItEvenWithOurCacheFileAndLeafs() throws Exception {
        // Meituan Leaf starts from its cache file here; a cached id cannot tell whether another process of
        // the address took it meanwhile, so this server refuses and reads neither file.
        InstanceAddress instance = new InstanceAddress("10.0.0.5", 8080);
        leafWritesItsCacheFile(instance, "workerID=7");
        zk.cache(instance).record(3, clock.millis() - 1);
        zk.server().stop();

        assertThatThrownBy(() -> started(instance)).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("leaf.snowflake.zk.address").hasMessageContaining("could not be reached")
                .hasMessageContaining("no cached id is safe");
        assertThat(zk.cache(instance).read()).hasValue(new ReservationFile.Recorded(3, clock.millis() - 1));
    }

    @Test
    void gracefulStopLeavesANodeLeafItselfStartsOn() throws Exception {
        InstanceAddress instance = new InstanceAddress("10.0.0.5", 8080);
        String node = leaf.register(instance.ip(), instance.port(), clock.millis() - 10_000);
        ReservingWorkerIdHolder holder = started(instance);
        SnowflakeGenerator generator = generator(holder);
        long last = 0;
        for (int i = 0; i < 10; i++) {
            last = generator.nextId(); // all in the current millisecond, so the stop must wait one
        }

        generator.close();

        long clockAtStop = clock.millis();
        MeituanLeafNodes.Endpoint endpoint = leaf.read(node);
        assertThat(endpoint).isEqualTo(new MeituanLeafNodes.Endpoint("10.0.0.5", "8080", endpoint.timestamp()));
        assertThat(endpoint.leafStartsAt(clockAtStop)).as("Leaf starts on %s at %d", endpoint, clockAtStop).isTrue();
        assertThat(endpoint.timestamp())
                .as("Leaf may issue at that very time, so no ID of ours may carry it")
                .isGreaterThan(LAYOUT.decode(last).timestampMillis());
    }

    @Test
    void afterACrashTheNodeHoldsTheReservationSoLeafWaitsUntilTheClockPassesIt() throws Exception {
        InstanceAddress instance = new InstanceAddress("10.0.0.5", 8080);
        ReservingWorkerIdHolder holder = started(instance);
        generator(holder).nextId();
        long reserved = holder.lease().reservedUntilMillis();

        holder.close(); // no release: what a crash leaves

        MeituanLeafNodes.Endpoint endpoint = leaf.read(leaf.nodeOf(instance.ip(), instance.port()));
        assertThat(endpoint.timestamp()).isEqualTo(reserved);
        assertThat(endpoint.leafStartsAt(clock.millis())).isFalse(); // Leaf would refuse now
        clock.advance(2 * REPORT_INTERVAL.toMillis());
        assertThat(endpoint.leafStartsAt(clock.millis())).isTrue(); // and start once its clock passes it
    }

    private Path leafWritesItsCacheFile(InstanceAddress instance, String content) throws Exception {
        // Meituan Leaf's own place: {java.io.tmpdir}/{leaf.name}/leafconf/{port}/workerID.properties
        Path file = zk.leafTmpdir(instance).resolve(zk.paths().name()).resolve("leafconf")
                .resolve(Integer.toString(instance.port())).resolve("workerID.properties");
        Files.createDirectories(file.getParent());
        Files.writeString(file, content); // Leaf writes "workerID=N", no line break
        return file;
    }

    private ReservingWorkerIdHolder started(InstanceAddress instance) {
        return zk.started(instance, Duration.ofSeconds(5));
    }

    private ZkNormalWorkerIdRegistry registry(InstanceAddress instance) {
        return zk.registry(instance);
    }

    private SnowflakeGenerator generator(ReservingWorkerIdHolder holder) {
        return zk.generator(holder);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
