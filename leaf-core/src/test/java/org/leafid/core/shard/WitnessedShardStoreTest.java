package org.leafid.core.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.segment.SegmentLoadListener;
import org.leafid.core.testing.InMemoryFleetWitness;
import org.leafid.core.testing.InMemoryShardStore;
import org.leafid.core.witness.DataDirWitness;

/**
 * The Redis buffer's refills witnessed (issue 44, shard apps): blocks of {@code id_alloc} set back
 * (a restored backup) are carried past what was reserved, to the fleet witness's end exactly, or past
 * this server's data-directory witness with the margin for other servers. Every index is collected.
 */
class WitnessedShardStoreTest {

    private static final int STEP = 10;

    @TempDir
    Path dataDir;

    private final InMemoryShardStore store = new InMemoryShardStore().createApp(3, "orders", STEP, 0, 0, 1);
    private final List<Long> wentBackTo = new ArrayList<>();
    private final SegmentLoadListener listener = new SegmentLoadListener() {
        @Override
        public void loaded(String tag, Duration took, long size) {
        }

        @Override
        public void failed(String tag, Duration took, RuntimeException cause) {
        }

        @Override
        public void wentBack(String tag, long blockStart, long servedFrom) {
            wentBackTo.add(servedFrom);
        }
    };

    @Test
    void twoServersWithTheFleetsWitnessCarryARestoredRowToItsEndExactly() {
        InMemoryFleetWitness fleet = new InMemoryFleetWitness();
        WitnessedShardStore a = new WitnessedShardStore(store, fleet, 1_000, listener);
        WitnessedShardStore b = new WitnessedShardStore(store, fleet, 1_000, listener);
        Set<Long> issued = new HashSet<>();
        take(a, 5, issued);
        long dumped = store.maxId(3, 0);
        take(b, 5, issued);
        take(a, 5, issued);
        long highest = store.maxId(3, 0);
        store.setMaxId(3, 0, dumped); // the dump loaded back; new servers, nothing of their own
        WitnessedShardStore c = new WitnessedShardStore(store, fleet, 1_000, listener);
        ShardBlock carried = c.reserve(3, 0, 1);
        assertThat(carried.firstIndex()).as("the first index past what was reserved").isEqualTo(highest + 1);
        addAll(carried, issued);
        take(c, 5, issued);
        take(a, 5, issued);
        assertThat(issued).hasSize(26 * STEP);
        assertThat(wentBackTo).containsExactly(highest + 1);
        assertThat(store.maxId(3, 1)).as("another shard untouched").isZero();
    }

    @Test
    void aRestartOnItsDataDirectorySkipsItsOwnBlocksAndTheMargin() {
        Set<Long> issued = new HashSet<>();
        long dumped;
        long highest;
        try (DataDirWitness witness = DataDirWitness.open(dataDir, "id_alloc")) {
            WitnessedShardStore before = new WitnessedShardStore(store, witness, 100, listener);
            take(before, 3, issued);
            dumped = store.maxId(3, 0);
            take(before, 4, issued);
            highest = store.maxId(3, 0);
        }
        store.setMaxId(3, 0, dumped);
        try (DataDirWitness witness = DataDirWitness.open(dataDir, "id_alloc")) {
            WitnessedShardStore after = new WitnessedShardStore(store, witness, 100, listener);
            ShardBlock carried = after.reserve(3, 0, 1);
            assertThat(carried.firstIndex()).as("past its own blocks and 100 blocks of margin")
                    .isEqualTo(highest + 1 + 100L * STEP);
            addAll(carried, issued);
            take(after, 3, issued);
        }
        assertThat(issued).hasSize(11 * STEP);
        assertThat(wentBackTo).hasSize(1);
    }

    private static void take(WitnessedShardStore store, int blocks, Set<Long> issued) {
        for (int i = 0; i < blocks; i++) {
            addAll(store.reserve(3, 0, 1), issued);
        }
    }

    private static void addAll(ShardBlock block, Set<Long> issued) {
        for (long index = block.firstIndex(); index <= block.lastIndex(); index++) {
            assertThat(issued.add(index)).as("index %d handed out twice", index).isTrue();
        }
    }
}
