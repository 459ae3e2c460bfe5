package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.leafid.client.IdSource;
import org.leafid.client.LeafClient;
import org.leafid.client.LeafInvalidInputException;
import org.leafid.client.LeafUnavailableException;
import org.leafid.client.LeafUnknownKeyException;
import org.leafid.client.ShardIds;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * leaf-client against two real server processes on one MariaDB database (the test database's
 * {@code _client}), with local worker ids 1 and 2: two servers each on an embedded H2 file and
 * worker id 0 would issue the same IDs, so they share the database and differ in worker id.
 * No HTTP is mocked: every ID comes from a server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@FullFaultSuite
@Execution(ExecutionMode.CONCURRENT) // whole, in the fault suite's second lane
@ReliabilityFaultIT.SecondLane
class LeafClientIT {

    private static final int APP = 201;
    private static final int THREADS = 8;
    private static final int PER_THREAD = 1_000_000;
    private static final Duration START = Duration.ofSeconds(180);

    private final String runId = "client-" + System.currentTimeMillis();
    private Fleet fleet;
    private FaultDatabase database;
    private ServerProcess one;
    private ServerProcess two;
    private String tag;

    @BeforeAll
    void startTwoServers() throws Exception {
        fleet = new Fleet(runId);
        database = FaultDatabase.on(TestDatabase.get().derived("client"));
        database.update("DELETE FROM leaf_alloc WHERE biz_tag LIKE 'client-%'");
        tag = runId;
        database.insertTag(tag, 0, 100_000);
        database.insertApp(APP, "client-it", 10_000, 0);
        one = server("leaf-1", 1);
        two = server("leaf-2", 2);
        Fleet.startAll(List.of(one, two), START);
    }

    @AfterAll
    void stopServers() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    @Order(1)
    void refusalsAreTypedExceptionsAtOnceAndMarkNoServerDown() {
        try (LeafClient leaf = client(Duration.ofSeconds(30))) {
            long started = System.nanoTime();
            assertThatThrownBy(() -> leaf.segment("client-no-such-tag").nextId())
                    .isInstanceOfSatisfying(LeafUnknownKeyException.class, e -> {
                        assertThat(e.status()).isEqualTo(404);
                        assertThat(e.type()).isEqualTo("urn:leaf:problem:unknown-tag");
                        assertThat(e.detail()).contains("client-no-such-tag");
                    });
            assertThatThrownBy(() -> leaf.shard(250).nextId("alice"))
                    .isInstanceOfSatisfying(LeafUnknownKeyException.class,
                            e -> assertThat(e.type()).isEqualTo("urn:leaf:problem:unknown-app"));
            assertThatThrownBy(() -> leaf.segment("bad tag!").nextId())
                    .isInstanceOfSatisfying(LeafInvalidInputException.class,
                            e -> assertThat(e.type()).isEqualTo("urn:leaf:problem:invalid-key"));
            assertThatThrownBy(() -> leaf.shard(256)).isInstanceOf(LeafInvalidInputException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("no wait for the 30 s bound")
                    .isLessThan(Duration.ofSeconds(10));
            assertThat(leaf.servers()).allMatch(server -> server.up());
        }
    }

    @Test
    @Order(2)
    void eightThreadsTakeAMillionSegmentIdsEachWithoutADuplicate() throws Exception {
        // Batches up to 1,000,000, as ranges, over blocks that start at 100,000: each thread claims up to 64
        // IDs at a time, and an answer across blocks is several runs, served as runs (a claim across the hole
        // between two blocks is copied out).
        try (LeafClient leaf = LeafClient.builder().servers("http://127.0.0.1:" + one.port(),
                "http://127.0.0.1:" + two.port()).maxWait(Duration.ofSeconds(30)).maxRangeBatch(1_000_000)
                .build()) {
            IdSource source = leaf.segment(tag);
            long[][] ids = take(THREADS, PER_THREAD, thread -> source::nextId);
            for (long[] own : ids) {
                assertThat(firstNotIncreasing(own)).as("a thread's segment IDs increase").isEqualTo(-1);
            }
            long[] all = concat(ids);
            assertThat(all).hasSize(THREADS * PER_THREAD);
            assertThat(IdChecks.duplicates(all).count()).as("duplicates").isZero();
            assertThat(IdChecks.min(all)).isNotNegative();
            assertThat(IdChecks.max(all)).as("issued by a server: within the reserved blocks")
                    .isLessThanOrEqualTo(database.maxId(tag));
        }
    }

    @Test
    @Order(3)
    void eightThreadsTakeAMillionSnowflakeIdsEachWithoutADuplicate() throws Exception {
        try (LeafClient leaf = client(Duration.ofSeconds(30))) {
            IdSource source = leaf.snowflake();
            long[] all = concat(take(THREADS, PER_THREAD, thread -> source::nextId));
            assertThat(all).hasSize(THREADS * PER_THREAD);
            assertThat(IdChecks.duplicates(all).count()).as("duplicates").isZero();
        }
    }

    @Test
    @Order(4)
    void eightThreadsTakeShardIdsInTheirGatePassesShardsWithoutADuplicate() throws Exception {
        try (LeafClient leaf = client(Duration.ofSeconds(30))) {
            ShardIds app = leaf.shard(APP);
            int perThread = 100_000;
            long[][] ids = take(THREADS, perThread, thread -> {
                String gatePass = "user-" + thread + "@example.com";
                return () -> app.nextId(gatePass);
            });
            for (int thread = 0; thread < THREADS; thread++) {
                int shard = ShardIds.shardOf("user-" + thread + "@example.com");
                for (long id : ids[thread]) {
                    assertThat(id & 0xFF).isEqualTo(APP);
                    assertThat((id >> 8) & 63).isEqualTo(shard);
                }
            }
            long[] roundRobin = app.nextIds(5_000);
            long[] all = concat(new long[][] {concat(ids), roundRobin});
            assertThat(all).hasSize(THREADS * perThread + 5_000);
            assertThat(IdChecks.duplicates(all).count()).as("duplicates").isZero();
            assertThat(Arrays.stream(roundRobin).allMatch(id -> (id & 0xFF) == APP)).as("the app's IDs").isTrue();
        }
    }

    @Test
    @Order(5)
    void eachServerKilledUnderLoadAndRestartedReachesNoExceptionToTheApplication() throws Exception {
        try (LeafClient leaf = client(Duration.ofSeconds(30))) {
            IdSource segment = leaf.segment(tag);
            IdSource snowflake = leaf.snowflake();
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            int threads = 4;
            LongList[] segmentIds = new LongList[threads];
            LongList[] snowflakeIds = new LongList[threads];
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            for (int t = 0; t < threads; t++) {
                LongList ownSegment = segmentIds[t] = new LongList();
                LongList ownSnowflake = snowflakeIds[t] = new LongList();
                pool.execute(() -> {
                    try {
                        while (!stop.get()) {
                            // About 100,000 IDs a second per thread and mode: the lists stay in memory.
                            for (int i = 0; i < 100; i++) {
                                ownSegment.add(segment.nextId());
                                ownSnowflake.add(snowflake.nextId());
                            }
                            Thread.sleep(1);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                });
            }
            FaultContext.hold(Duration.ofSeconds(2));
            one.kill();
            FaultContext.hold(Duration.ofSeconds(3));
            one.start().awaitReady(START);
            FaultContext.hold(Duration.ofSeconds(1));
            two.kill();
            FaultContext.hold(Duration.ofSeconds(3));
            two.start().awaitReady(START);
            FaultContext.hold(Duration.ofSeconds(1));
            stop.set(true);
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

            assertThat(errors).as("exceptions that reached the application").isEmpty();
            for (LongList own : segmentIds) {
                assertThat(IdChecks.firstNotIncreasing(own)).as("a thread's segment IDs increase").isEqualTo(-1);
            }
            long[] allSegment = LongList.concat(List.of(segmentIds));
            long[] allSnowflake = LongList.concat(List.of(snowflakeIds));
            assertThat(allSegment.length).isGreaterThan(10_000);
            assertThat(IdChecks.duplicates(allSegment).count()).as("segment duplicates").isZero();
            assertThat(IdChecks.duplicates(allSnowflake).count()).as("snowflake duplicates").isZero();
            assertThat(IdChecks.max(allSegment)).isLessThanOrEqualTo(database.maxId(tag));
        }
    }

    @Test
    @Order(6)
    void bothServersDownTheBufferIsServedThenUnavailableAfterTheBound() throws Exception {
        Duration bound = Duration.ofSeconds(2);
        try (LeafClient leaf = client(bound)) {
            IdSource source = leaf.segment(tag);
            source.nextIds(500);
            await().atMost(Duration.ofSeconds(30)).until(() -> source.buffered() > 0);
            one.kill();
            two.kill();
            int buffered = source.buffered();
            int served = 0;
            LeafUnavailableException unavailable = null;
            long callStarted = 0;
            while (unavailable == null) {
                callStarted = System.nanoTime();
                try {
                    source.nextId();
                    served++;
                } catch (LeafUnavailableException e) {
                    unavailable = e;
                }
            }
            Duration waited = Duration.ofNanos(System.nanoTime() - callStarted);
            assertThat(served).as("IDs served from the buffer before the exception").isGreaterThanOrEqualTo(buffered);
            assertThat(waited).as("the call that threw waited the bound").isGreaterThanOrEqualTo(bound)
                    .isLessThan(bound.plusSeconds(3));
            assertThat(unavailable.waited()).isEqualTo(bound);
            assertThat(leaf.servers()).noneMatch(server -> server.up());

            Fleet.startAll(List.of(one, two), START);
            await().atMost(Duration.ofSeconds(30)).ignoreException(LeafUnavailableException.class)
                    .until(() -> source.nextId() > 0);
        }
    }

    private LeafClient client(Duration maxWait) {
        return LeafClient.builder().servers("http://127.0.0.1:" + one.port(), "http://127.0.0.1:" + two.port())
                .maxWait(maxWait).build();
    }

    private ServerProcess server(String name, int workerId) {
        List<String> arguments = new ArrayList<>(List.of("--leaf.name=" + runId, "--leaf.snowflake.ip=127.0.0.1",
                "--leaf.snowflake.local.worker-id=" + workerId, "--leaf.shard.enable=true", "--leaf.max-batch=100000"));
        arguments.addAll(database.serverArguments(database.url()));
        return fleet.server(name, arguments, database.serverEnvironment());
    }

    /** {@code perThread} IDs from each of {@code threads} threads, taken at once. */
    private static long[][] take(int threads, int perThread, IntFunction<LongSupplier> next)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                LongSupplier source = next.apply(t);
                results.add(pool.submit(() -> {
                    long[] ids = new long[perThread];
                    for (int i = 0; i < perThread; i++) {
                        ids[i] = source.getAsLong();
                    }
                    return ids;
                }));
            }
            long[][] ids = new long[threads][];
            for (int t = 0; t < threads; t++) {
                ids[t] = results.get(t).get(5, TimeUnit.MINUTES);
            }
            return ids;
        } finally {
            pool.shutdownNow();
        }
    }

    private static long[] concat(long[][] parts) {
        int size = 0;
        for (long[] part : parts) {
            size += part.length;
        }
        long[] all = new long[size];
        int at = 0;
        for (long[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    private static int firstNotIncreasing(long[] ids) {
        for (int i = 1; i < ids.length; i++) {
            if (ids[i] <= ids[i - 1]) {
                return i;
            }
        }
        return -1;
    }
}
