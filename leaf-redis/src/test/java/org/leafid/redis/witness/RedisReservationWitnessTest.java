package org.leafid.redis.witness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.leafid.core.segment.FoundTwiceException;
import org.leafid.core.witness.WitnessException;
import org.leafid.redis.TestRedis;

/**
 * The fleet's witness on the real Redis of the tests: blocks claimed in and out of order are recorded,
 * a block that overlaps one witnessed (a store that went back) is refused with the highest end, so is
 * one below the blocks trimmed away, and numbers past 2^53 keep every digit.
 */
class RedisReservationWitnessTest {

    private static TestRedis redis;

    @BeforeAll
    static void connect() {
        redis = new TestRedis(TestRedis.LOCAL_PORT);
    }

    @AfterAll
    static void close() {
        redis.close();
    }

    private static RedisReservationWitness witness() {
        return new RedisReservationWitness(redis.template(), "test-" + UUID.randomUUID());
    }

    @Test
    void blocksClaimedInAnyOrderAreRecordedAndAnOverlapGetsTheHighestEnd() {
        RedisReservationWitness witness = witness();
        assertThat(witness.claim("t", 0, 100)).isEqualTo(Long.MIN_VALUE);
        assertThat(witness.claim("t", 200, 300)).as("a block reserved later, claimed first").isEqualTo(Long.MIN_VALUE);
        assertThat(witness.claim("t", 100, 200)).as("the block between, claimed after").isEqualTo(Long.MIN_VALUE);
        assertThat(witness.claim("other", 0, 100)).as("another tag").isEqualTo(Long.MIN_VALUE);

        assertThat(witness.claim("t", 150, 250)).as("overlaps two").isEqualTo(300);
        assertThat(witness.claim("t", 0, 10)).as("inside the first").isEqualTo(300);
        assertThat(witness.claim("t", 299, 400)).as("overlaps the last by one").isEqualTo(300);
        assertThat(witness.claim("t", 300, 400)).as("right after").isEqualTo(Long.MIN_VALUE);
        // The same start again, past where the overlaps above carried the row (300): impossible for one
        // database, but once is carried (a late claim); a second time is two databases.
        assertThat(witness.claim("t", 300, 301)).isEqualTo(400);
    }

    @Test
    void aBlockBelowTheTrimmedOnesIsRefused() {
        RedisReservationWitness witness = witness();
        for (int i = 0; i < RedisReservationWitness.KEPT_BLOCKS + 10; i++) {
            assertThat(witness.claim("t", 10L * i + 5, 10L * i + 10)).isEqualTo(Long.MIN_VALUE);
        }
        long high = 10L * (RedisReservationWitness.KEPT_BLOCKS + 9) + 10;
        assertThat(witness.claim("t", 0, 5)).as("a gap below the trimmed blocks").isEqualTo(high);
        assertThat(witness.claim("t", high + 5, high + 10)).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void numbersPast2To53KeepEveryDigit() {
        RedisReservationWitness witness = witness();
        long base = (1L << 62) + 1;
        assertThat(witness.claim("t", base, base + 1)).isEqualTo(Long.MIN_VALUE);
        assertThat(witness.claim("t", base + 1, base + 2)).as("adjacent, one apart at 2^62").isEqualTo(Long.MIN_VALUE);
        assertThat(witness.claim("t", base, base + 1)).isEqualTo(base + 2);
        assertThat(witness.claim("t", Long.MAX_VALUE - 1, Long.MAX_VALUE)).isEqualTo(Long.MIN_VALUE);
    }

    /**
     * Eight claimers of disjoint blocks handed out by one counter (the store): none refused, every block
     * kept. Eight blocks each, 64 in all, no more than the {@value RedisReservationWitness#KEPT_BLOCKS}
     * kept: a claim that arrives after 64 higher blocks is refused on purpose (below the floor), which a
     * slow machine can cause and which is not what this test is about.
     */
    @Test
    void concurrentClaimsOfDisjointBlocksAreAllRecorded() throws Exception {
        RedisReservationWitness witness = witness();
        AtomicLong store = new AtomicLong();
        List<long[]> recorded = Collections.synchronizedList(new ArrayList<>());
        ExecutorService servers = Executors.newFixedThreadPool(8);
        try {
            List<Future<Long>> refusals = new ArrayList<>();
            for (int s = 0; s < 8; s++) {
                refusals.add(servers.submit(() -> {
                    long refused = 0;
                    for (int i = 0; i < 8; i++) {
                        long end = store.addAndGet(100);
                        if (witness.claim("t", end - 100, end) == Long.MIN_VALUE) {
                            recorded.add(new long[] {end - 100, end});
                        } else {
                            refused++;
                        }
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
        assertThat(recorded).hasSize(64);
        // The store went back to any of them: every such claim is refused, with the highest end.
        for (long[] block : recorded) {
            assertThat(witness.claim("t", block[0], block[1])).as("block [%d, %d)", block[0], block[1])
                    .isEqualTo(store.get());
        }
    }

    /** The rule of WitnessedBlocks in claim.lua: a clone's block past the carry is two databases, until released. */
    @Test
    void twoDatabasesAtOnceAreRefusedUntilReleasedAndARestoreIsNot() {
        RedisReservationWitness witness = witness();
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
        RedisReservationWitness shards = witness.forTable("id_alloc");
        assertThat(shards.claim("t", 0, 100)).as("another table's keys apart").isEqualTo(Long.MIN_VALUE);
    }

    /** A hash lost beside its blocks (evicted, deleted by hand) is a damaged witness: refused, never read as empty. */
    @Test
    void blocksWithoutTheirHashAreRefusedNotReadAsNothing() {
        String namespace = "damaged-" + UUID.randomUUID();
        RedisReservationWitness witness = new RedisReservationWitness(redis.template(), namespace);
        assertThat(witness.claim("t", 0, 100)).isEqualTo(Long.MIN_VALUE);
        redis.template().delete("leaf:witness:" + namespace + ":{t}:high");
        assertThatThrownBy(() -> witness.claim("t", 0, 100)).isInstanceOf(WitnessException.class)
                .hasMessageContaining("nothing of it is served");
    }

    @Test
    void aWitnessThatCannotBeReachedRefusesTheBlock() {
        try (TestRedis nowhere = new TestRedis(1)) {
            RedisReservationWitness witness = new RedisReservationWitness(nowhere.template(), "down");
            assertThatThrownBy(() -> witness.claim("t", 0, 100)).isInstanceOf(WitnessException.class)
                    .hasMessageContaining("nothing of it is served");
        }
    }
}
