package org.leafid.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.leafid.client.BadServerAssertions.assertAllValidAndDistinct;
import static org.leafid.client.BadServerAssertions.assertIncreasing;
import static org.leafid.testing.client.LeafAnswers.appOf;
import static org.leafid.testing.client.LeafAnswers.shardId;
import static org.leafid.testing.client.LeafAnswers.shardOfId;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.leafid.testing.client.LeafAnswers;
import org.leafid.testing.client.SocketHttpServer;
import org.leafid.testing.client.SocketHttpServer.Responder;

/**
 * A client with servers {@code [bad, good]}, each a real HTTP server on 127.0.0.1, the first one
 * answering 200 with something no Leaf server sends: every answer is checked before any ID of it
 * is handed out, the bad server is marked down, counted and named, and the good one serves. Each
 * test takes 20,000 IDs and checks every one: none twice, each one the good server could issue.
 */
class BadAnswersTest {

    private static final int IDS = 20_000;
    private static final int APP = 56;
    private static final long GOOD_SEGMENT_FLOOR = 1_000_000;
    private static final long GOOD_SNOWFLAKE_FLOOR = 1L << 40;

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
    void snowflakeZerosAreNeverHandedOutAndTheGoodServerServes() throws IOException {
        LeafClient client = clientWithBad(LeafAnswers.zeros());
        long[] ids = take(() -> client.snowflake().nextId());
        assertAllValidAndDistinct(ids, id -> id > GOOD_SNOWFLAKE_FLOOR);
        assertBadServerCaughtBy("positive");
    }

    @Test
    void aShardIdRepeatedInOneAnswerIsNeverHandedOut() throws IOException {
        long repeated = shardId(APP, 3, 1L << 40); // an index the good server does not reach
        LeafClient client = clientWithBad(LeafAnswers.each(i -> repeated));
        long[] ids = take(() -> client.shard(APP).nextId());
        assertAllValidAndDistinct(ids, id -> appOf(id) == APP && id != repeated);
        assertBadServerCaughtBy("repeated");
    }

    @Test
    void aShardAnswerRepeatingThePreviousOneIsRefused() throws IOException {
        // Well-formed, and the same every time.
        LeafClient client = clientWithBad(LeafAnswers.each(i -> shardId(APP, i % 64, 1_000 + i)));
        long[] ids = take(() -> client.shard(APP).nextId());
        assertAllValidAndDistinct(ids, id -> appOf(id) == APP);
        assertBadServerCaughtBy("repeated");
    }

    @Test
    void shardIdsOfAnotherAppAreNeverHandedOut() throws IOException {
        LeafClient client = clientWithBad(LeafAnswers.each(i -> shardId(APP + 1, i % 64, 1 + i)));
        long[] ids = take(() -> client.shard(APP).nextId());
        assertAllValidAndDistinct(ids, id -> appOf(id) == APP);
        assertBadServerCaughtBy("app");
    }

    @Test
    void shardIdsOutsideTheGatePassesShardAreNeverHandedOut() throws IOException {
        String gatePass = "alice@example.com";
        int shard = ShardIds.shardOf(gatePass);
        LeafClient client = clientWithBad(LeafAnswers.each(i -> shardId(APP, (shard + 1) % 64, 1 + i)));
        long[] ids = take(() -> client.shard(APP).nextId(gatePass));
        assertAllValidAndDistinct(ids, id -> appOf(id) == APP && shardOfId(id) == shard);
        assertBadServerCaughtBy("shard");
    }

    @Test
    void aSegmentAnswerNotIncreasingIsNeverHandedOut() throws IOException {
        LeafClient client = clientWithBad(LeafAnswers.each(i -> 5_000_000L - i));
        long[] ids = take(() -> client.segment("order").nextId());
        assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR && id < 5_000_000L - IDS);
        assertIncreasing(ids);
        assertBadServerCaughtBy("increasing");
    }

    @Test
    void aSegmentAnswerAtOrBelowWhatWasServedIsRefused() throws IOException {
        // Batches of 100 each time: an answer of 1..100 again is wholly at or below what was served.
        LeafClient client = clientWithBad(LeafAnswers.each(i -> 1 + i), 100);
        long[] ids = take(() -> client.segment("order").nextId());
        // The bad server's first answer is above nothing served, so it passes; its later ones repeat it.
        long fromBad = Arrays.stream(ids).filter(id -> id <= GOOD_SEGMENT_FLOOR).count();
        assertThat(fromBad).isEqualTo(BatchSizer.FIRST_SIZE);
        assertAllValidAndDistinct(ids, id -> id > 0);
        assertIncreasing(ids);
        // Judged by the floor when the request left after the first answer was served from ("behind"), or,
        // when it left before (two in flight at the start), by the answer it repeats ("repeated").
        assertBadServerCaughtBy("behind", "repeated");
    }

    @Test
    void aSnowflakeAnswerRepeatingAnEarlierOneIsRefused() throws IOException {
        // Below the good server's IDs: the bad server's first answer is served, then the good server is above it.
        // Its second answer, asked before the first was served from, is judged against the first one itself.
        long base = 1L << 39;
        LeafClient client = clientWithBad(LeafAnswers.each(i -> base + 1 + i));
        long[] ids = take(() -> client.snowflake().nextId());
        long fromBad = Arrays.stream(ids).filter(id -> id < GOOD_SNOWFLAKE_FLOOR).count();
        assertThat(fromBad).as("the bad server's first answer only").isEqualTo(BatchSizer.FIRST_SIZE);
        assertAllValidAndDistinct(ids, id -> id > base);
        assertIncreasing(ids);
        assertBadServerCaughtBy("repeated");
    }

    @Test
    void garbageAndAnswersOfTheWrongCountAreRefused() throws IOException {
        LeafClient client = clientWithBad(LeafAnswers.garbage());
        assertAllValidAndDistinct(take(() -> client.snowflake().nextId()), id -> id > GOOD_SNOWFLAKE_FLOOR);
        assertBadServerCaughtBy("format");
        leaf.close();
        bad.close();

        LeafClient shortAnswers = clientWithBad(LeafAnswers.ids(request -> new long[request.count() - 1]));
        assertAllValidAndDistinct(take(() -> shortAnswers.snowflake().nextId()), id -> id > GOOD_SNOWFLAKE_FLOOR);
        assertBadServerCaughtBy("count");
    }

    @Test
    @Timeout(60) // today's client waits for the body without end, and throws LeafUnavailableException
    void aBodyDrippedAByteASecondIsCutOffAtTheDeadlineAndTheNextServerServes() throws IOException {
        LeafClient client = clientWithBad(LeafAnswers.drip(Duration.ofSeconds(1)), 1000, Duration.ofSeconds(1));
        long started = System.nanoTime();
        long first = client.snowflake().nextId();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the first ID within the 1 s deadline and a bit")
                .isLessThan(Duration.ofSeconds(4));
        long[] rest = take(() -> client.snowflake().nextId());
        long[] ids = Arrays.copyOf(rest, rest.length + 1);
        ids[rest.length] = first;
        assertAllValidAndDistinct(ids, id -> id > GOOD_SNOWFLAKE_FLOOR);
        assertBadServerCaughtBy("deadline");
    }

    @Test
    @Timeout(60) // today's client reads the body until its heap is gone
    void anEndlessBodyIsCutOffAtTheSizeTheCountAllows() throws IOException {
        LeafClient client = clientWithBad(LeafAnswers.endless(), 1000, Duration.ofSeconds(1));
        long[] ids = take(() -> client.segment("order").nextId());
        assertAllValidAndDistinct(ids, id -> id > GOOD_SEGMENT_FLOOR);
        assertBadServerCaughtBy("size");
    }

    private LeafClient clientWithBad(Responder answers) throws IOException {
        return clientWithBad(answers, 1000);
    }

    private LeafClient clientWithBad(Responder answers, int maxBatch) throws IOException {
        // A deadline well above any answer's time on a loaded machine: these tests are about the check named, and
        // a slow answer would be refused as "deadline" first.
        return clientWithBad(answers, maxBatch, Duration.ofSeconds(5));
    }

    private LeafClient clientWithBad(Responder answers, int maxBatch, Duration requestTimeout) throws IOException {
        bad = SocketHttpServer.start(answers);
        leaf = LeafClient.builder().servers(bad.url(), good.url()).requestTimeout(requestTimeout)
                .maxWait(Duration.ofSeconds(10)).maxBatch(maxBatch).meterRegistry(registry).build();
        return leaf;
    }

    private static long[] take(Supplier<Long> next) {
        long[] ids = new long[IDS];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = next.get();
        }
        return ids;
    }

    private void assertBadServerCaughtBy(String... checks) {
        BadServerAssertions.assertBadServerCaughtBy(registry, leaf, bad.url(), good.url(), checks);
    }
}
