package org.leafid.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.leafid.client.BadServerAssertions.assertAllValidAndDistinct;
import static org.leafid.client.BadServerAssertions.assertIncreasing;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.leafid.testing.client.LeafAnswers;
import org.leafid.testing.client.SocketHttpServer;
import org.leafid.testing.client.SocketHttpServer.Responder;

/**
 * Segment batches answered as ranges ({@code application/vnd.leaf.ranges+json}), which the client
 * asks for: a client with servers {@code [bad, good]}, each a real HTTP server on 127.0.0.1, the bad
 * one answering 200 with ranges no Leaf server sends (garbage, runs that overlap, run backwards or do
 * not add up, a body dripped or without end, a replay of what the good one gave). Every answer is
 * checked before any ID of it is handed out; the bad server is counted under the check that caught
 * it, and the good one serves. Each test takes 20,000 IDs and checks every one: none twice, each one
 * the good server could issue.
 */
class RangeAnswersTest {

    private static final int IDS = 20_000;
    private static final long GOOD_SEGMENT_FLOOR = 1_000_000;
    private static final int APP = 56;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private SocketHttpServer good;
    private SocketHttpServer bad;
    private LeafClient leaf;

    @BeforeEach
    void startGoodServer() throws IOException {
        good = SocketHttpServer.start(LeafAnswers.good());
    }

    @AfterEach
    void stop() throws IOException {
        if (leaf != null) {
            leaf.close();
        }
        if (bad != null) {
            bad.close();
        }
        good.close();
    }

    @Test
    void aGoodServersRangesAreServedAndCounted() throws IOException {
        leaf = LeafClient.builder().servers(good.url()).maxBatch(1000).meterRegistry(registry).build();
        long[] ids = take(leaf.segment("order"));
        assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR);
        assertIncreasing(ids);
        assertThat(counted("leaf.client.ranges")).as("leaf_client_ranges_total").isGreaterThanOrEqualTo(1);
    }

    @Test
    void answersStartNoThreadOfTheirOwn() {
        // sendAsync completes each answer on the common pool's default executor: with one or two CPUs, a new
        // thread per answer. 20,000 IDs in batches of at most 100 are 200 answers. The test server starts a
        // thread for each connection, and takes one request a connection: those threads are not the client's.
        leaf = LeafClient.builder().servers(good.url()).maxBatch(100).maxRangeBatch(100).meterRegistry(registry)
                .build();
        IdSource segment = leaf.segment("order");
        segment.nextId(); // the client's threads and the connection start with the first batch
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long startedBefore = threads.getTotalStartedThreadCount();
        int servedBefore = good.requests();
        double fetchedBefore = counted("leaf.client.fetches");

        long[] ids = take(segment);

        double answers = counted("leaf.client.fetches") - fetchedBefore;
        long started = threads.getTotalStartedThreadCount() - startedBefore - (good.requests() - servedBefore);
        assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR);
        assertThat(answers).as("answers").isGreaterThanOrEqualTo(150);
        assertThat(started).as("threads the client started during %.0f answers", answers).isLessThan(10);
    }

    @Test
    void aServerThatKnowsNoRangesIsReadAsBefore() throws IOException {
        SocketHttpServer plain = SocketHttpServer.start(LeafAnswers.plain(LeafAnswers.good()));
        try {
            leaf = LeafClient.builder().servers(plain.url()).maxBatch(1000).meterRegistry(registry).build();
            long[] ids = take(leaf.segment("order"));
            assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR);
            assertIncreasing(ids);
            assertThat(counted("leaf.client.ranges")).as("no answer came as ranges").isZero();
        } finally {
            plain.close();
        }
    }

    @Test
    void shardRangesStepByTheIndexAndAreServedAndCounted() throws IOException {
        leaf = LeafClient.builder().servers(good.url()).maxBatch(1000).meterRegistry(registry).build();
        ShardIds app = leaf.shard(APP);
        long[] gated = take(() -> app.nextId("alice"));
        long[] anyShard = take(app::nextId);
        long[] all = Arrays.copyOf(gated, gated.length + anyShard.length);
        System.arraycopy(anyShard, 0, all, gated.length, anyShard.length);
        assertAllValidAndDistinct(all, id -> LeafAnswers.appOf(id) == APP);
        assertThat(Arrays.stream(gated).map(LeafAnswers::shardOfId).distinct().count()).as("one shard").isOne();
        assertThat(counted("leaf.client.ranges")).as("leaf_client_ranges_total").isGreaterThanOrEqualTo(2);
    }

    @Test
    void shardRunsThatAreNotWholeStepsAreRefused() throws IOException {
        Responder badStride = LeafAnswers.rangesBody(request -> "{\"count\":" + request.count()
                + ",\"stride\":\"16384\",\"ranges\":[[\"" + LeafAnswers.shardId(APP, 3, 1) + "\",\""
                + (LeafAnswers.shardId(APP, 3, request.count()) + 1) + "\"]]}");
        bad = SocketHttpServer.start(badStride);
        leaf = LeafClient.builder().servers(bad.url(), good.url()).requestTimeout(Duration.ofSeconds(5))
                .maxWait(Duration.ofSeconds(10)).maxBatch(1000).meterRegistry(registry).build();
        ShardIds app = leaf.shard(APP);
        long[] ids = take(app::nextId);
        assertAllValidAndDistinct(ids, id -> LeafAnswers.appOf(id) == APP);
        assertBadServerCaughtBy("format");
    }

    @Test
    void garbageOfTheRangesTypeIsRefused() throws IOException {
        long[] ids = take(clientWithBad(LeafAnswers.garbage()).segment("order"));
        assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR);
        assertBadServerCaughtBy("format");
    }

    @Test
    void runsThatDoNotAddUpToTheCountAreRefused() throws IOException {
        // The count as asked, one ID short in the runs.
        Responder shortRuns = LeafAnswers.rangesBody(request -> "{\"count\":" + request.count()
                + ",\"ranges\":[[\"900000001\",\"" + (900_000_000L + request.count() - 1) + "\"]]}");
        long[] ids = take(clientWithBad(shortRuns).segment("order"));
        assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR && id < 900_000_000L);
        assertBadServerCaughtBy("count");
    }

    @Test
    void aCountOtherThanTheOneAskedForIsRefused() throws IOException {
        Responder moreThanAsked = LeafAnswers.rangesBody(request -> "{\"count\":" + (request.count() + 1)
                + ",\"ranges\":[[\"900000001\",\"" + (900_000_001L + request.count()) + "\"]]}");
        long[] ids = take(clientWithBad(moreThanAsked).segment("order"));
        assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR && id < 900_000_000L);
        assertBadServerCaughtBy("count");
    }

    @Test
    void aRunAsLongAsTheIdSpaceIsRefusedWithoutBeingWrittenOut() throws IOException {
        Responder everything = LeafAnswers.rangesBody(request -> "{\"count\":" + request.count()
                + ",\"ranges\":[[\"0\",\"9223372036854775807\"]]}");
        long[] ids = take(clientWithBad(everything).segment("order"));
        assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR && id < 900_000_000L);
        assertBadServerCaughtBy("count");
    }

    @Test
    void runsOutOfOrderOrOverlappingAreRefused() throws IOException {
        // Two runs of half the count each, the second starting inside the first.
        Responder overlapping = LeafAnswers.rangesBody(request -> {
            long half = request.count() / 2;
            return "{\"count\":" + request.count() + ",\"ranges\":[[\"900000001\",\"" + (900_000_000L + half)
                    + "\"],[\"900000002\",\"" + (900_000_001L + request.count() - half) + "\"]]}";
        });
        long[] ids = take(clientWithBad(overlapping).segment("order"));
        assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR && id < 900_000_000L);
        assertBadServerCaughtBy("increasing");
    }

    @Test
    void aRunThatEndsBeforeItStartsIsRefused() throws IOException {
        Responder backwards = LeafAnswers.rangesBody(request -> "{\"count\":" + request.count()
                + ",\"ranges\":[[\"900100000\",\"900000001\"]]}");
        long[] ids = take(clientWithBad(backwards).segment("order"));
        assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR && id < 900_000_000L);
        assertBadServerCaughtBy("increasing");
    }

    @Test
    void aServerReplayingTheRangesAnotherGaveBeforeAFailoverHandsOutNoneTwice() throws IOException {
        // The first server gives five answers and then fails; the second, asked next, starts 250 IDs back
        // in the first one's range (a copy of leaf_alloc that lagged, or a proxy answering from a cache).
        AtomicLong lastOfFirst = new AtomicLong(GOOD_SEGMENT_FLOOR);
        Responder first = LeafAnswers.switching(5, LeafAnswers.each(i -> lastOfFirst.incrementAndGet()),
                LeafAnswers.unavailable());
        AtomicLong replayed = new AtomicLong(-1);
        Responder replaying = LeafAnswers.each(i -> {
            replayed.compareAndSet(-1, lastOfFirst.get() - 250);
            return replayed.incrementAndGet();
        });
        SocketHttpServer firstServer = SocketHttpServer.start(first);
        bad = SocketHttpServer.start(replaying);
        try {
            leaf = LeafClient.builder().servers(firstServer.url(), bad.url()).requestTimeout(Duration.ofSeconds(5))
                    .maxWait(Duration.ofSeconds(20)).maxBatch(100).meterRegistry(registry).build();
            long[] ids = take(leaf.segment("order"));
            assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR);
            assertIncreasing(ids);
            assertThat(registry.find("leaf.client.bad.answers").tag("server", bad.url()).counters().stream()
                    .mapToDouble(Counter::count).sum()).as("the replaying server's answers refused").isPositive();
            assertThat(counted("leaf.client.ranges")).as("answers as ranges").isPositive();
        } finally {
            firstServer.close();
        }
    }

    @Test
    void aServerRepeatingItsOwnRangesIsRefused() throws IOException {
        // The same well-formed runs in every answer, below the good server's: the first is served, and
        // every later one is the same IDs again.
        Responder repeating = LeafAnswers.rangesBody(request -> "{\"count\":" + request.count()
                + ",\"ranges\":[[\"500001\",\"" + (500_000L + request.count()) + "\"]]}");
        LeafClient client = clientWithBad(repeating);
        long[] ids = take(client.segment("order"));
        long[] more = take(client.segment("order"));
        long[] all = Arrays.copyOf(ids, ids.length + more.length);
        System.arraycopy(more, 0, all, ids.length, more.length);
        assertAllValidAndDistinct(all, id -> id > 500_000);
        assertIncreasing(all);
        assertBadServerCaughtBy("repeated", "behind");
    }

    @Test
    @Timeout(60)
    void rangesDrippedAByteASecondAreCutOffAtTheDeadline() throws IOException {
        LeafClient client = clientWithBad(LeafAnswers.drip(Duration.ofSeconds(1)), Duration.ofSeconds(1));
        long[] ids = take(client.segment("order"));
        assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR);
        assertBadServerCaughtBy("deadline");
    }

    @Test
    @Timeout(60)
    void rangesWithoutEndAreCutOffAtTheSizeTheCountAllows() throws IOException {
        LeafClient client = clientWithBad(LeafAnswers.endless(), Duration.ofSeconds(1));
        long[] ids = take(client.segment("order"));
        assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR);
        assertBadServerCaughtBy("size");
    }

    private LeafClient clientWithBad(Responder answers) throws IOException {
        // A deadline well above any answer's time on a loaded machine: these tests are about the check named.
        return clientWithBad(answers, Duration.ofSeconds(5));
    }

    private LeafClient clientWithBad(Responder answers, Duration requestTimeout) throws IOException {
        bad = SocketHttpServer.start(answers);
        leaf = LeafClient.builder().servers(bad.url(), good.url()).requestTimeout(requestTimeout)
                .maxWait(Duration.ofSeconds(10)).maxBatch(1000).meterRegistry(registry).build();
        return leaf;
    }

    private static long[] take(IdSource source) {
        return take(source::nextId);
    }

    private static long[] take(LongSupplier next) {
        long[] ids = new long[IDS];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = next.getAsLong();
        }
        return ids;
    }

    private double counted(String meter) {
        return registry.find(meter).counters().stream().mapToDouble(Counter::count).sum();
    }

    private void assertBadServerCaughtBy(String... checks) {
        BadServerAssertions.assertBadServerCaughtBy(registry, leaf, bad.url(), good.url(), checks);
    }
}
