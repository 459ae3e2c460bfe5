package org.leafid.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.leafid.core.testing.InMemoryFleetWitness;
import org.leafid.core.witness.WitnessedBlocks;
import org.leafid.testing.InMemorySegmentStore;

/**
 * Generators with a fleet-wide witness ({@link ReservationWitness#fleetWide}): a row set back within
 * the blocks another server reserved, which a server's own memory cannot see, is caught at the claim;
 * a new server with nothing of its own (a pod without a disk) is caught the same way; and the skip goes
 * to the witnessed end exactly, not a margin of blocks above it. The witness here keeps its blocks in
 * memory by the rule the Redis and ZooKeeper witnesses share ({@link WitnessedBlocks}); those two are
 * tested on real servers in their modules.
 */
class FleetWitnessTest {

    private static final int STEP = 100;

    @Test
    void aSetBackWithinAnotherServersBlocksIsCaughtAndSkippedToTheWitnessedEndExactly() {
        InMemorySegmentStore store = new InMemorySegmentStore().put("orders", 0, STEP);
        InMemoryFleetWitness witness = new InMemoryFleetWitness();
        SegmentIdGenerator first = generator(store, witness);
        SegmentIdGenerator second = generator(store, witness);
        Set<Long> served = new HashSet<>();
        take(first, 150, served);
        take(second, 150, served);
        take(second, 300, served); // second's blocks now run above first's
        long highest = store.maxId("orders");

        store.put("orders", highest - 2 * STEP, STEP); // above first's own end, within second's blocks
        take(first, 600, served);
        take(second, 600, served);

        assertThat(served).hasSize(1_800);
        assertThat(store.maxId("orders")).as("carried to the witnessed end, no margin of 1,000 blocks")
                .isLessThan(highest + 20 * STEP);
    }

    @Test
    void aNewServerOnARestoredStoreIsCaughtWithNothingOfItsOwn() {
        InMemorySegmentStore store = new InMemorySegmentStore().put("orders", 0, STEP);
        InMemoryFleetWitness witness = new InMemoryFleetWitness();
        Set<Long> served = new HashSet<>();
        take(generator(store, witness), 1_000, served);
        long highest = store.maxId("orders");

        store.put("orders", 0, STEP); // the backup restored; the pod starts again with an empty disk
        take(generator(store, witness), 1_000, served);

        assertThat(served).hasSize(2_000);
        assertThat(store.maxId("orders")).isLessThan(highest + 20 * STEP);
    }

    /**
     * The original found twice at once: a clone of the database (same name, another server) served by
     * some servers while the original goes on serving others. The first block of the clone that overlaps
     * the original's is a row that went back, carried past it; the next one either database answers
     * within the other's blocks proves two at once, and from then on every server of the tag is refused,
     * whichever database it uses, until an operator stops the clone and releases the tag. Nothing is
     * served twice before, during or after.
     */
    @Test
    void theOriginalAndAServedCloneAreRefusedUntilReleased() {
        InMemorySegmentStore original = new InMemorySegmentStore().put("orders", 0, STEP);
        InMemoryFleetWitness witness = new InMemoryFleetWitness();
        SegmentIdGenerator onOriginal = generator(original, witness);
        Set<Long> served = new HashSet<>();
        take(onOriginal, 750, served);
        InMemorySegmentStore clone = new InMemorySegmentStore().put("orders", original.maxId("orders"), STEP);
        SegmentIdGenerator onClone = generator(clone, witness);
        SegmentIdGenerator alsoOnOriginal = generator(original, witness);
        SegmentStoreException refused = null;
        for (int round = 0; round < 40 && refused == null; round++) {
            try {
                take(onClone, 130, served);
                take(onOriginal, 70, served);
                take(alsoOnOriginal, 90, served);
            } catch (SegmentStoreException e) {
                refused = e;
            }
        }
        assertThat(refused).as("found twice").isNotNull();
        assertThat(refused.getMessage()).contains("two databases answer for this row at once")
                .contains("POST /api/admin/witness/release");
        for (SegmentIdGenerator server : List.of(onClone, onOriginal, alsoOnOriginal)) {
            // Each serves what it claimed before, then is refused at its next block.
            assertThatThrownBy(() -> take(server, 100_000, served)).isInstanceOf(SegmentStoreException.class)
                    .hasMessageContaining("two databases answer");
        }

        // The clone stopped, the tag released: the original's servers go on, above both.
        assertThat(witness.release("orders")).isTrue();
        take(onOriginal, 500, served);
        take(alsoOnOriginal, 500, served);
        assertThat(witness.release("orders")).as("released once").isFalse();
    }

    /**
     * A restore under two servers whose blocks cross it: the second one's block reserved from the
     * restored row before the first carried it is a row that went back, not two databases.
     */
    @Test
    void aRestoreUnderTwoServersIsNotTwoDatabases() {
        InMemorySegmentStore store = new InMemorySegmentStore().put("orders", 0, STEP);
        InMemoryFleetWitness witness = new InMemoryFleetWitness();
        Set<Long> served = new HashSet<>();
        take(generator(store, witness), 2_000, served);
        store.put("orders", 500, STEP); // the backup restored; two new pods
        SegmentIdGenerator first = generator(store, witness);
        SegmentIdGenerator second = generator(store, witness);
        AllocRow stale = store.reserve("orders", 1); // the second's reservation, claimed after the first's
        take(first, 150, served);
        assertThat(witness.claim("orders", stale.maxId() - STEP, stale.maxId())).as("went back").isPositive();
        take(second, 1_000, served);
        take(first, 1_000, served);
        assertThat(served).hasSize(4_150);
    }

    private static void take(SegmentIdGenerator generator, int count, Set<Long> served) {
        for (int i = 0; i < count; i++) {
            long id = generator.nextId();
            assertThat(served.add(id)).as("id %d served twice", id).isTrue();
        }
    }

    private static SegmentIdGenerator generator(InMemorySegmentStore store, ReservationWitness witness) {
        SegmentSettings settings = new SegmentSettings(new StepPolicy(STEP, Duration.ofMinutes(15)),
                Duration.ofSeconds(10), SegmentLoadListener.NONE, SegmentSettings.DEFAULT_WENT_BACK_SKIP_BLOCKS,
                witness);
        return new SegmentIdGenerator("orders", store, settings, InstantSource.system(), Runnable::run);
    }
}
