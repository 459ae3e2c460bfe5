package org.leafid.zookeeper.witness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.leafid.core.segment.FoundTwiceException;
import org.leafid.core.witness.WitnessException;

/**
 * The fleet's witness on a real ZooKeeper (curator-test's in-process server): the same claims as
 * Redis's witness, several clients claiming one tag at once (each a server of the fleet, its own
 * session), and a node that is not a witness refused rather than read as empty.
 */
class ZkReservationWitnessTest {

    private static TestingServer server;
    private static final List<CuratorFramework> clients = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        server = new TestingServer(true);
    }

    @AfterAll
    static void stop() throws Exception {
        clients.forEach(CuratorFramework::close);
        server.close();
    }

    private static CuratorFramework client() {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
                .sessionTimeoutMs(10_000).connectionTimeoutMs(5_000).retryPolicy(new RetryOneTime(100)).build();
        client.start();
        clients.add(client);
        return client;
    }

    @Test
    void blocksClaimedInAnyOrderAreRecordedAndAnOverlapGetsTheHighestEnd() {
        ZkReservationWitness witness = new ZkReservationWitness(client(), "order");
        assertThat(witness.claim("t", 0, 100)).isEqualTo(Long.MIN_VALUE);
        assertThat(witness.claim("t", 200, 300)).isEqualTo(Long.MIN_VALUE);
        assertThat(witness.claim("t", 100, 200)).isEqualTo(Long.MIN_VALUE);
        assertThat(witness.claim("t", 150, 250)).isEqualTo(300);
        assertThat(witness.claim("t", 299, 400)).isEqualTo(300);
        assertThat(witness.claim("t", 300, 400)).isEqualTo(Long.MIN_VALUE);
        for (int i = 0; i < ZkReservationWitness.KEPT_BLOCKS + 5; i++) {
            assertThat(witness.claim("t", 1_000 + 10L * i, 1_005 + 10L * i)).isEqualTo(Long.MIN_VALUE);
        }
        long high = 1_005 + 10L * (ZkReservationWitness.KEPT_BLOCKS + 4);
        assertThat(witness.claim("t", 400, 500)).as("below the blocks trimmed away").isEqualTo(high);
        assertThat(witness.claim("t", (1L << 62) + 1, (1L << 62) + 2)).isEqualTo(Long.MIN_VALUE);
    }

    /**
     * Six servers, each its own ZooKeeper session, claiming disjoint blocks of one tag at once. Ten
     * blocks each, 60 in all, fewer than the {@value ZkReservationWitness#KEPT_BLOCKS} kept: a claim
     * that arrives after 64 higher blocks is refused on purpose (below the floor), which a slow
     * machine can cause and which is not what this test is about.
     */
    @Test
    void serversClaimingOneTagAtOnceAreAllRecorded() throws Exception {
        AtomicLong store = new AtomicLong();
        ExecutorService servers = Executors.newFixedThreadPool(6);
        try {
            List<Future<Long>> refusals = new ArrayList<>();
            for (int s = 0; s < 6; s++) {
                ZkReservationWitness witness = new ZkReservationWitness(client(), "concurrent");
                refusals.add(servers.submit(() -> {
                    long refused = 0;
                    for (int i = 0; i < 10; i++) {
                        long end = store.addAndGet(100);
                        refused += witness.claim("t", end - 100, end) == Long.MIN_VALUE ? 0 : 1;
                    }
                    return refused;
                }));
            }
            for (Future<Long> refused : refusals) {
                assertThat(refused.get()).isZero();
            }
        } finally {
            servers.shutdownNow();
        }
        // Every block was recorded: each claimed again (the store went back to it) is refused with the highest end.
        ZkReservationWitness witness = new ZkReservationWitness(client(), "concurrent");
        assertThat(store.get()).isEqualTo(6_000);
        for (long end = 100; end <= store.get(); end += 100) {
            assertThat(witness.claim("t", end - 100, end)).as("block ending at %d", end).isEqualTo(store.get());
        }
    }

    /** The rule of WitnessedBlocks on a node: a clone's block past the carry is two databases, until released. */
    @Test
    void twoDatabasesAtOnceAreRefusedUntilReleasedAndARestoreIsNot() {
        ZkReservationWitness witness = new ZkReservationWitness(client(), "twice");
        assertThat(witness.claim("t", 0, 100)).isEqualTo(Long.MIN_VALUE);
        assertThat(witness.claim("t", 100, 200)).isEqualTo(Long.MIN_VALUE);
        assertThat(witness.claim("t", 0, 100)).as("restored: carried past 200").isEqualTo(200);
        assertThat(witness.claim("t", 200, 300)).isEqualTo(Long.MIN_VALUE);
        assertThat(witness.claim("t", 100, 200)).as("another server's stale block: went back").isEqualTo(300);
        assertThat(witness.release("t")).as("nothing to release").isFalse();
        assertThat(witness.claim("t", 300, 400)).isEqualTo(Long.MIN_VALUE);
        assertThat(witness.claim("t", 300, 400)).as("impossible for one database, once: carried").isEqualTo(400);
        assertThat(witness.claim("t", 400, 500)).isEqualTo(Long.MIN_VALUE);
        assertThatThrownBy(() -> witness.claim("t", 400, 500)).as("twice").isInstanceOf(FoundTwiceException.class)
                .hasMessageContaining("leaf_alloc 't'").hasMessageContaining("POST /api/admin/witness/release");
        assertThatThrownBy(() -> witness.claim("t", 9_000, 9_100)).as("every claim, until released")
                .isInstanceOf(FoundTwiceException.class);
        assertThat(witness.release("t")).isTrue();
        assertThat(witness.claim("t", 500, 600)).isEqualTo(Long.MIN_VALUE);
        assertThat(witness.release("never-claimed")).isFalse();
    }

    @Test
    void aNodeThatIsNotAWitnessStopsTheClaim() throws Exception {
        CuratorFramework client = client();
        client.create().creatingParentsIfNeeded().forPath("/leaf/witness/garbled/leaf_alloc/t",
                "not a witness".getBytes(StandardCharsets.US_ASCII));
        ZkReservationWitness witness = new ZkReservationWitness(client, "garbled");
        assertThatThrownBy(() -> witness.claim("t", 0, 100)).isInstanceOf(WitnessException.class)
                .hasMessageContaining("/leaf/witness/garbled/leaf_alloc/t");
    }
}
