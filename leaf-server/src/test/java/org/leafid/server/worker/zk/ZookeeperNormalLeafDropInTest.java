package org.leafid.server.worker.zk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
import org.leafid.core.snowflake.ReservingWorkerIdHolder;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeId;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.snowflake.WorkerIdRegistry.Registration;
import org.leafid.core.testing.FakeClock;
import org.leafid.server.worker.InstanceAddress;
import org.leafid.server.worker.ReservationFile;
import org.leafid.server.worker.WorkerCacheFiles;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code zk_normal} as a drop-in for Meituan Leaf, against a real ZooKeeper (curator-test)
 * holding registrations laid out exactly as Leaf's {@code SnowflakeZookeeperHolder} makes them:
 * taking one over, Leaf's cache file with ZooKeeper down, and a node Leaf itself starts on again.
 */
class ZookeeperNormalLeafDropInTest {

    private static final Duration REPORT_INTERVAL = Duration.ofSeconds(3);
    private static final SnowflakeLayout LAYOUT = new SnowflakeLayout(SnowflakeLayout.DEFAULT_TWEPOCH);
    /** What Leaf's start does with the node data: a default Jackson mapper, unknown properties fail. */
    private static final JsonMapper LEAF_MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    /** The shape of Leaf's {@code SnowflakeZookeeperHolder.Endpoint}. */
    record LeafEndpoint(String ip, String port, long timestamp) {}

    @TempDir
    Path dir;

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger registryLogger = (Logger) LoggerFactory.getLogger(ZookeeperNormalRegistry.class);
    private TestingServer server;
    private String name;
    private FakeClock clock;

    @BeforeEach
    void startZookeeper() throws Exception {
        server = new TestingServer(true);
        name = "dropin-" + UUID.randomUUID();
        clock = new FakeClock(System.currentTimeMillis());
        log.start();
        registryLogger.addAppender(log);
    }

    @AfterEach
    void closeAll() throws Exception {
        registryLogger.detachAppender(log);
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        server.close();
    }

    @Test
    void leafRegistrationIsTakenOverWithItsWorkerIdAndIdsComeOnlyAfterItsTimestamp() throws Exception {
        long leafSaw = clock.millis(); // Leaf stopped right after its last report
        leafRegisters("10.0.0.1", 8080, leafSaw - 60_000);
        String leafNode = leafRegisters("10.0.0.5", 8080, leafSaw);
        leafRegisters("10.0.0.2", 8080, leafSaw - 5_000);
        InstanceAddress instance = new InstanceAddress("10.0.0.5", 8080);

        Registration registration = registry(instance).register();

        assertThat(registration.workerId()).isEqualTo(sequenceOf(leafNode)).isEqualTo(1);
        // Leaf's timestamp is the last time it saw, which its IDs may carry: ours start just after.
        assertThat(registration.recordedReservationMillis()).isEqualTo(leafSaw + 1);
        ReservingWorkerIdHolder holder = started(instance);
        SnowflakeGenerator generator = generator(holder);
        for (int i = 0; i < 20_000; i++) {
            SnowflakeId id = LAYOUT.decode(generator.nextId());
            assertThat(id.workerId()).isEqualTo(1);
            assertThat(id.timestampMillis()).isGreaterThan(leafSaw);
        }
        assertThat(client().getChildren().forPath(forever())).hasSize(3); // taken over, none added
    }

    @Test
    void leafTimestampAheadOfTheClockIsWaitedOutBeforeTheFirstId() throws Exception {
        long leafSaw = clock.millis() + 1_500; // this machine's clock is behind Leaf's last report
        leafRegisters("10.0.0.5", 8080, leafSaw);

        ReservingWorkerIdHolder holder = started(new InstanceAddress("10.0.0.5", 8080));

        assertThat(LAYOUT.decode(generator(holder).nextId()).timestampMillis()).isGreaterThan(leafSaw);
    }

    @Test
    void instancesBesideLeafRegistrationsNeverShareAWorkerId() throws Exception {
        int leafHere = sequenceOf(leafRegisters("10.0.0.5", 8080, clock.millis() - 1_000));
        int leafElsewhere = sequenceOf(leafRegisters("10.0.0.6", 8080, clock.millis() - 1_000));

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
        Set<Integer> leafIds = Set.of(sequenceOf(leafRegisters("10.0.0.1", 8080, clock.millis())),
                sequenceOf(leafRegisters("10.0.0.2", 8080, clock.millis())));
        int instances = 8;
        List<ZookeeperNormalRegistry> registries = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            registries.add(registry(new InstanceAddress("10.0.1." + i, 8080)));
        }
        ExecutorService threads = Executors.newFixedThreadPool(instances);
        resources.add(threads::shutdownNow);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> workerIds = new ArrayList<>();
        for (ZookeeperNormalRegistry registry : registries) {
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
        assertThat(client().getChildren().forPath(forever())).hasSize(instances + leafIds.size());
    }

    @Test
    void zookeeperDownAtStartUsesLeafsCacheFileFromNowAndSaysSo() throws Exception {
        InstanceAddress instance = new InstanceAddress("10.0.0.5", 8080);
        Path leafFile = leafWritesItsCacheFile(instance, "workerID=7");
        server.stop();

        ReservingWorkerIdHolder holder = started(instance);

        assertThat(holder.workerId()).isEqualTo(7);
        assertThat(holder.lease().validFromMillis()).isZero(); // no time recorded: from now, Leaf's own rule
        assertThat(cache(instance).read()).hasValue(new ReservationFile.Recorded(7,
                clock.millis() + 2 * REPORT_INTERVAL.toMillis()));
        assertThat(log.list).filteredOn(event -> event.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).anySatisfy(line -> assertThat(line)
                        .contains("worker id 7 from Meituan Leaf's cache file " + leafFile)
                        .contains("records no time").contains("IDs are issued from now on")
                        .contains("only if this machine's clock is past every ID Leaf issued"));
    }

    @Test
    void zookeeperDownAtStartPrefersOurCacheFileToLeafs() throws Exception {
        InstanceAddress instance = new InstanceAddress("10.0.0.5", 8080);
        leafWritesItsCacheFile(instance, "workerID=7");
        cache(instance).record(3, clock.millis() - 1);
        server.stop();

        assertThat(started(instance).workerId()).isEqualTo(3);
    }

    @Test
    void zookeeperDownAtStartWithNeitherCacheFileNamesBoth() throws Exception {
        InstanceAddress instance = new InstanceAddress("10.0.0.5", 8080);
        server.stop();

        assertThatThrownBy(() -> started(instance)).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("could not be reached").hasMessageContaining(cache(instance).path().toString())
                .hasMessageContaining(leafCache(instance).path().toString())
                .hasMessageContaining("leaf.snowflake.zk.leaf-cache-dir");
    }

    @Test
    void leafCacheFileWithoutAWorkerIdIsAClearError() throws Exception {
        InstanceAddress instance = new InstanceAddress("10.0.0.5", 8080);
        Path leafFile = leafWritesItsCacheFile(instance, "workerID=");
        server.stop();

        assertThatThrownBy(() -> started(instance)).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining(leafFile.toString()).hasMessageContaining("workerID=N");
    }

    @Test
    void gracefulStopLeavesANodeLeafItselfStartsOn() throws Exception {
        InstanceAddress instance = new InstanceAddress("10.0.0.5", 8080);
        String node = leafRegisters(instance.ip(), instance.port(), clock.millis() - 10_000);
        ReservingWorkerIdHolder holder = started(instance);
        SnowflakeGenerator generator = generator(holder);
        long last = 0;
        for (int i = 0; i < 10; i++) {
            last = generator.nextId(); // all in the current millisecond, so the stop must wait one
        }

        generator.close();

        long clockAtStop = clock.millis();
        LeafEndpoint endpoint = leafReads(node);
        assertThat(endpoint).isEqualTo(new LeafEndpoint("10.0.0.5", "8080", endpoint.timestamp()));
        assertThat(endpoint.timestamp()).as("Leaf refuses to start on a timestamp ahead of its clock")
                .isLessThanOrEqualTo(clockAtStop)
                .as("Leaf may issue at that very time, so no ID of ours may carry it")
                .isGreaterThan(LAYOUT.decode(last).timestampMillis());
    }

    @Test
    void aRenewalStillQueuedAtTheStopDoesNotOverwriteTheFinalNodeData() throws Exception {
        InstanceAddress instance = new InstanceAddress("10.0.0.5", 8080);
        CountDownLatch zookeeperAnswers = new CountDownLatch(1);
        ExecutorService stalledWriter = Executors.newSingleThreadExecutor();
        resources.add(stalledWriter::shutdownNow);
        stalledWriter.execute(() -> awaitQuietly(zookeeperAnswers));
        ReservingWorkerIdHolder holder = started(registry(instance, stalledWriter)); // its first write is queued
        SnowflakeGenerator generator = generator(holder);
        generator.nextId();

        generator.close(); // the final reservation is written in this thread
        zookeeperAnswers.countDown();
        stalledWriter.shutdown();
        assertThat(stalledWriter.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

        String node = forever() + "/" + client().getChildren().forPath(forever()).get(0);
        assertThat(leafReads(node).timestamp()).isLessThanOrEqualTo(clock.millis());
    }

    @Test
    void afterACrashTheNodeHoldsTheReservationSoLeafWaitsUntilTheClockPassesIt() throws Exception {
        InstanceAddress instance = new InstanceAddress("10.0.0.5", 8080);
        ReservingWorkerIdHolder holder = started(instance);
        generator(holder).nextId();
        long reserved = holder.lease().reservedUntilMillis();

        holder.close(); // no release: what a crash leaves

        String node = forever() + "/" + client().getChildren().forPath(forever()).get(0);
        long timestamp = leafReads(node).timestamp();
        assertThat(timestamp).isEqualTo(reserved).isGreaterThan(clock.millis()); // Leaf would refuse now
        clock.advance(2 * REPORT_INTERVAL.toMillis());
        assertThat(timestamp).isLessThanOrEqualTo(clock.millis()); // and start once its clock passes it
    }

    /** Creates the node as Leaf's {@code createNode} does, with the JSON Jackson writes for its Endpoint. */
    private String leafRegisters(String ip, int port, long timestamp) throws Exception {
        String json = "{\"ip\":\"" + ip + "\",\"port\":\"" + port + "\",\"timestamp\":" + timestamp + "}";
        return client().create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                .forPath(forever() + "/" + ip + ":" + port + "-", json.getBytes(StandardCharsets.UTF_8));
    }

    /** Reads the node as Leaf's start does (strictly), and checks the port is a string as Leaf writes it. */
    private LeafEndpoint leafReads(String node) throws Exception {
        byte[] data = client().getData().forPath(node);
        JsonNode tree = LEAF_MAPPER.readTree(data);
        assertThat(tree.propertyNames()).containsExactly("ip", "port", "timestamp");
        assertThat(tree.get("port").isString()).as("port as a string").isTrue();
        return LEAF_MAPPER.readValue(data, LeafEndpoint.class);
    }

    private Path leafWritesItsCacheFile(InstanceAddress instance, String content) throws Exception {
        Path file = leafCache(instance).path();
        Files.createDirectories(file.getParent());
        Files.writeString(file, content); // Leaf writes "workerID=N", no line break
        return file;
    }

    private String forever() {
        return "/snowflake/" + name + "/forever";
    }

    private static int sequenceOf(String node) {
        return Integer.parseInt(node.substring(node.lastIndexOf('-') + 1));
    }

    private ReservingWorkerIdHolder started(InstanceAddress instance) {
        return started(registry(instance));
    }

    private ReservingWorkerIdHolder started(ZookeeperNormalRegistry registry) {
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(registry, clock, clock, REPORT_INTERVAL,
                Duration.ofSeconds(5));
        holder.start();
        resources.add(holder);
        return holder;
    }

    private ZookeeperNormalRegistry registry(InstanceAddress instance) {
        return registry(instance, Runnable::run);
    }

    private ZookeeperNormalRegistry registry(InstanceAddress instance, Executor nodeWriter) {
        return new ZookeeperNormalRegistry(client(), new ZkPaths(name), instance, cache(instance), leafCache(instance),
                Duration.ofMillis(500), nodeWriter);
    }

    private SnowflakeGenerator generator(ReservingWorkerIdHolder holder) {
        return new SnowflakeGenerator(LAYOUT, holder, clock, clock, new Random(7), Duration.ofMillis(5));
    }

    private ReservationFile cache(InstanceAddress instance) {
        return new WorkerCacheFiles(dir.resolve("data"), name, instance.port()).registry();
    }

    private MeituanLeafCacheFile leafCache(InstanceAddress instance) {
        return MeituanLeafCacheFile.of(dir.resolve("leaf-tmpdir").toString(), name, instance.port());
    }

    /** A new client per use, as separate instances would have. */
    private CuratorFramework client() {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
                .sessionTimeoutMs(5_000).connectionTimeoutMs(500).retryPolicy(new RetryOneTime(100)).build();
        client.start();
        resources.add(client);
        return client;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
