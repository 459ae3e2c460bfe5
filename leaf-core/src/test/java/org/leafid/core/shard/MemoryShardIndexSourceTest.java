package org.leafid.core.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.leafid.testing.FakeClock;
import org.leafid.core.testing.InMemoryShardStore;

/** The double buffer over id_alloc, with loads run on the calling thread so each step is visible. */
class MemoryShardIndexSourceTest {

    private static final Executor INLINE = Runnable::run;

    private final FakeClock clock = new FakeClock(1_000_000);
    private final InMemoryShardStore store = new InMemoryShardStore().createApp(1, "orders", 10, 0, 0, 1, 2);

    private MemoryShardIndexSource source() {
        MemoryShardIndexSource source = new MemoryShardIndexSource(store, clock, INLINE, Duration.ofSeconds(5));
        source.refresh();
        return source;
    }

    @Test
    void indexesAreTheirBlocksOldMaxIdPlusOneToNewMaxId() {
        MemoryShardIndexSource source = source();
        long[] first = LongStream.range(0, 25).map(i -> source.nextIndex(1, 0)).toArray();
        assertThat(first).containsExactly(LongStream.rangeClosed(1, 25).toArray());
        // Three blocks of the row's step, no more (the next one was preloaded past 10 % of the third).
        assertThat(store.maxId(1, 0)).isEqualTo(40);
        assertThat(source.nextIndex(1, 1)).isEqualTo(1);
    }

    @Test
    void theStepNeverGrowsHoweverFastBlocksAreUsed() {
        MemoryShardIndexSource source = source();
        for (int i = 0; i < 1_000; i++) {
            source.nextIndex(1, 2); // no clock advance: Leaf's policy would double every block
        }
        assertThat(store.maxId(1, 2)).isEqualTo(1_010);
        assertThat(source.views().get("1:2").step()).isEqualTo(10);
    }

    @Test
    void aRestartSkipsTheRestOfItsBlocksAndNeverRepeats() {
        MemoryShardIndexSource before = source();
        long last = 0;
        for (int i = 0; i < 13; i++) {
            last = before.nextIndex(1, 0);
        }
        MemoryShardIndexSource after = source(); // same table, a new process
        long next = after.nextIndex(1, 0);
        assertThat(next).isGreaterThan(last).isEqualTo(31); // 14..30 were reserved by the first one
    }

    @Test
    void batchesGoOnAcrossBlocks() {
        MemoryShardIndexSource source = source();
        assertThat(source.nextIndexes(1, 1, 23)).containsExactly(LongStream.rangeClosed(1, 23).toArray());
        assertThat(source.nextIndexes(1, 1, 2)).containsExactly(24, 25);
    }

    @Test
    void unknownAppsAndShardsAreNamedAsSuch() {
        MemoryShardIndexSource source = source();
        assertThatThrownBy(() -> source.nextIndex(2, 0)).isInstanceOf(UnknownAppException.class);
        assertThatThrownBy(() -> source.nextIndex(1, 3)).isInstanceOf(UnknownShardException.class);
        assertThatThrownBy(() -> source.nextIndexes(1, 64, 1)).isInstanceOf(UnknownShardException.class);
        assertThatThrownBy(() -> source.nextIndex(-1, 0)).isInstanceOf(UnknownAppException.class);

        store.createApp(2, "users", 5, 0, 7);
        source.refresh();
        assertThat(source.nextIndex(2, 7)).isEqualTo(1);
        store.removeApp(1);
        source.refresh();
        assertThatThrownBy(() -> source.nextIndex(1, 0)).isInstanceOf(UnknownAppException.class);
    }

    @Test
    void aRowDeletedBetweenRefreshesIsReportedByTheLoad() {
        MemoryShardIndexSource source = source();
        store.removeApp(1);
        assertThatThrownBy(() -> source.nextIndex(1, 0)).isInstanceOf(UnknownAppException.class);
    }

    @Test
    void aStoreThatIsDownIsAShardStoreExceptionAndServingResumesAfter() {
        MemoryShardIndexSource source = source();
        store.down(true);
        assertThatThrownBy(() -> source.nextIndex(1, 0)).isInstanceOf(ShardStoreException.class);
        assertThatThrownBy(source::refresh).isInstanceOf(ShardStoreException.class);
        store.down(false);
        assertThat(source.nextIndex(1, 0)).isEqualTo(1);
    }

    @Test
    void appsNeverReadBecauseTheStoreIsDownAreAStoreFailureNotAnUnknownApp() {
        store.down(true);
        MemoryShardIndexSource source = new MemoryShardIndexSource(store, clock, INLINE, Duration.ofSeconds(5));
        assertThatThrownBy(source::refresh).isInstanceOf(ShardStoreException.class);
        assertThatThrownBy(() -> source.nextIndex(1, 0))
                .isInstanceOf(ShardStoreException.class)
                .hasMessageContaining("have not been read yet");
    }

    @Test
    void aRaisedStepAppliesFromTheNextBlockAndALoweredOneNeverMakesARepeat() {
        MemoryShardIndexSource source = source();
        Set<Long> issued = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            assertThat(issued.add(source.nextIndex(1, 0))).isTrue();
        }
        store.setStep(1, 0, 30);
        for (int i = 0; i < 100; i++) {
            assertThat(issued.add(source.nextIndex(1, 0))).isTrue();
        }
        assertThat(source.views().get("1:0").step()).isEqualTo(30);
        store.setStep(1, 0, 7);
        for (int i = 0; i < 200; i++) {
            long index = source.nextIndex(1, 0);
            assertThat(issued.add(index)).as("index %d issued twice", index).isTrue();
            assertThat(index).isLessThanOrEqualTo(store.maxId(1, 0));
        }
        // The buffer still asks for 30: it gets 5 rows' steps (35), one 7 skipped when the change was found.
        assertThat(source.views().get("1:0").step()).isEqualTo(35);
    }
}
