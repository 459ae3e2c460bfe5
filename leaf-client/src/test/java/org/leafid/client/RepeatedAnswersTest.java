package org.leafid.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.leafid.testing.client.LeafAnswers.appOf;
import static org.leafid.testing.client.LeafAnswers.shardId;
import static org.leafid.testing.client.LeafAnswers.shardOfId;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.leafid.testing.client.LeafAnswers;
import org.leafid.testing.client.SocketHttpServer;
import org.leafid.testing.client.SocketHttpServer.Responder;

/**
 * Servers whose answers are each well formed but repeat IDs the client has taken already: from
 * another server, from an answer before the previous one; and a server that redirects. Each test
 * takes every ID the client hands out and checks that none comes twice.
 */
class RepeatedAnswersTest {

    private static final int APP = 56;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<SocketHttpServer> servers = new ArrayList<>();
    private LeafClient leaf;

    @AfterEach
    void stop() throws IOException {
        if (leaf != null) {
            leaf.close();
        }
        for (SocketHttpServer server : servers) {
            server.close();
        }
    }

    @Test
    void aServerReplayingTheSnowflakeIdsAnotherServerGaveBeforeAFailoverHandsOutNoneTwice() throws IOException {
        // The first server gives five answers and then fails; the second, asked next, starts 250 IDs back in the
        // first one's range (a server given the same worker id, or a proxy answering from a stale cache).
        AtomicLong lastOfFirst = new AtomicLong(1L << 40);
        Responder first = LeafAnswers.switching(5, LeafAnswers.each(i -> lastOfFirst.incrementAndGet()),
                LeafAnswers.unavailable());
        AtomicLong replayed = new AtomicLong(-1);
        Responder replaying = LeafAnswers.each(i -> {
            replayed.compareAndSet(-1, lastOfFirst.get() - 250);
            return replayed.incrementAndGet();
        });
        SocketHttpServer replay = start(replaying);
        LeafClient client = client(100, start(first), replay);

        long[] ids = take(2_000, () -> client.snowflake().nextId());

        assertDistinct(ids);
        assertThat(badAnswers(replay)).as("the replaying server's answers refused").isPositive();
    }

    @Test
    void aShardServerAlternatingTwoAnswersHandsOutNoneTwice() throws IOException {
        String gatePass = "alice@example.com";
        int shard = ShardIds.shardOf(gatePass);
        // Two well-formed answers of the gate pass's shard, in turn: neither repeats the one just before it.
        AtomicLong asked = new AtomicLong();
        Responder alternating = LeafAnswers.ids(request -> {
            long base = asked.getAndIncrement() % 2 == 0 ? 1L << 30 : 1L << 31;
            return IntStream.range(0, request.count()).mapToLong(i -> shardId(APP, shard, base + i)).toArray();
        });
        SocketHttpServer bad = start(alternating);
        LeafClient client = client(100, bad, start(LeafAnswers.good()));

        long[] ids = take(3_000, () -> client.shard(APP).nextId(gatePass));

        assertDistinct(ids);
        assertThat(Arrays.stream(ids).filter(id -> appOf(id) != APP || shardOfId(id) != shard).count()).isZero();
        assertThat(badAnswers(bad)).as("the alternating server's answers refused").isPositive();
    }

    @Test
    void aRedirectIsNotFollowedAndTheNextServerServes() throws IOException {
        SocketHttpServer elsewhere = start(LeafAnswers.good()); // where the redirect points: never asked
        SocketHttpServer redirecting = start(LeafAnswers.redirect(302, elsewhere.url() + "/api/segment/get/order"));
        LeafClient client = client(1000, redirecting, start(LeafAnswers.good()));

        long[] ids = take(5_000, () -> client.segment("order").nextId());

        assertDistinct(ids);
        assertThat(elsewhere.requests()).as("the redirect is not followed").isZero();
        ServerState state = client.servers().get(0);
        assertThat(state.lastFailure()).contains("302");
        Counter failures = registry.find("leaf.client.server.failures").tag("server", redirecting.url()).counter();
        assertThat(failures).isNotNull();
        assertThat(failures.count()).isGreaterThanOrEqualTo(1);
    }

    private SocketHttpServer start(Responder answers) throws IOException {
        SocketHttpServer server = SocketHttpServer.start(answers);
        servers.add(server);
        return server;
    }

    private LeafClient client(int maxBatch, SocketHttpServer... in) {
        leaf = LeafClient.builder().servers(Arrays.stream(in).map(SocketHttpServer::url).toList())
                .requestTimeout(Duration.ofSeconds(5)).maxWait(Duration.ofSeconds(20)).maxBatch(maxBatch)
                .meterRegistry(registry).build();
        return leaf;
    }

    private double badAnswers(SocketHttpServer server) {
        return registry.find("leaf.client.bad.answers").tag("server", server.url()).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    private static long[] take(int count, Supplier<Long> next) {
        long[] ids = new long[count];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = next.get();
        }
        return ids;
    }

    private static void assertDistinct(long[] ids) {
        long distinct = Arrays.stream(ids).distinct().count();
        assertThat(ids.length - distinct).as("IDs handed out more than once, of " + ids.length).isZero();
    }
}
