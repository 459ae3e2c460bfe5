package org.leafid.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardBlock;
import org.leafid.core.shard.ShardStore;
import org.leafid.core.shard.UnknownAppException;
import org.leafid.core.shard.UnknownShardException;

/**
 * What every {@link ShardStore} must do, whatever keeps the {@code id_alloc} rows: the block rule
 * of the Redis-queue services (a row at {@code max_id} m with step s gives {@code m+1 .. m+s}),
 * unknown app versus unknown shard, no overlap under concurrent reservations, and apps grouped
 * from their rows. A backend's test extends this, gives each test a store over an EMPTY table and
 * says how to insert a row. Test methods are public so that subclasses in other packages inherit them.
 */
public abstract class ShardStoreContractTest {

    /** The store under test; the same rows as {@link #insertRow} writes. Its table is empty at the test's start. */
    protected abstract ShardStore store();

    /** Inserts one {@code id_alloc} row, as an operator (or their service) would. */
    protected abstract void insertRow(int appId, String appName, int shardId, long maxId, int step, long maxLimitId);

    /** Inserts the 64 rows of an app, all at {@code maxId}, as their service creates one. */
    protected void insertApp(int appId, String appName, long maxId, int step, long maxLimitId) {
        for (int shard = 0; shard < 64; shard++) {
            insertRow(appId, appName, shard, maxId, step, maxLimitId);
        }
    }

    @Test
    public void firstReservationOfAFreshRowIsOneToStepAndTheNextFollows() {
        insertApp(7, "fresh", 0, 1000, 0);

        assertThat(store().reserve(7, 3, 1)).isEqualTo(new ShardBlock(7, 3, 1, 1000, 1000));
        assertThat(store().reserve(7, 3, 1)).isEqualTo(new ShardBlock(7, 3, 1001, 2000, 1000));
    }

    @Test
    public void severalBlocksReserveThatManyStepsAtOnce() {
        insertApp(8, "blocks", 0, 1000, 0);

        assertThat(store().reserve(8, 0, 3)).isEqualTo(new ShardBlock(8, 0, 1, 3000, 1000));
        assertThat(store().reserve(8, 0, 1)).isEqualTo(new ShardBlock(8, 0, 3001, 4000, 1000));
    }

    @Test
    public void rowsLeftByTheirServiceContinueAfterTheirMaxId() {
        // Their service issued up to max_id (5000 after five blocks of 1000): never again.
        insertApp(9, "theirs", 5000, 1000, 0);

        assertThat(store().reserve(9, 63, 1)).isEqualTo(new ShardBlock(9, 63, 5001, 6000, 1000));
    }

    @Test
    public void shardsOfAnAppAndAppsAdvanceIndependently() {
        insertApp(10, "ten", 0, 100, 0);
        insertApp(11, "eleven", 0, 100, 0);

        store().reserve(10, 0, 2);

        assertThat(store().reserve(10, 1, 1)).isEqualTo(new ShardBlock(10, 1, 1, 100, 100));
        assertThat(store().reserve(11, 0, 1)).isEqualTo(new ShardBlock(11, 0, 1, 100, 100));
        assertThat(store().reserve(10, 0, 1)).isEqualTo(new ShardBlock(10, 0, 201, 300, 100));
    }

    @Test
    public void eachRowReservesByItsOwnStep() {
        insertRow(12, "edited", 0, 0, 100, 0);
        store().reserve(12, 0, 1);
        insertRow(12, "edited", 1, 0, 500, 0);

        assertThat(store().reserve(12, 1, 1)).isEqualTo(new ShardBlock(12, 1, 1, 500, 500));
        assertThat(store().reserve(12, 0, 1)).isEqualTo(new ShardBlock(12, 0, 101, 200, 100));
    }

    @Test
    public void appWithoutRowsIsUnknown() {
        insertApp(13, "other", 0, 10, 0);

        assertThatThrownBy(() -> store().reserve(14, 0, 1))
                .isInstanceOf(UnknownAppException.class)
                .satisfies(e -> assertThat(((UnknownAppException) e).appId()).isEqualTo(14));
    }

    @Test
    public void appWithRowsButNotThisShardsHasAnUnknownShard() {
        insertRow(15, "partial", 0, 0, 10, 0);
        insertRow(15, "partial", 1, 0, 10, 0);

        assertThatThrownBy(() -> store().reserve(15, 7, 1))
                .isInstanceOf(UnknownShardException.class)
                .satisfies(e -> {
                    UnknownShardException unknown = (UnknownShardException) e;
                    assertThat(unknown.appId()).isEqualTo(15);
                    assertThat(unknown.shardId()).isEqualTo(7);
                });
    }

    @Test
    public void blocksBelowOneAreRejectedAndChangeNothing() {
        insertRow(16, "below-one", 0, 0, 10, 0);

        assertThatThrownBy(() -> store().reserve(16, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blocks");
        assertThat(store().reserve(16, 0, 1)).isEqualTo(new ShardBlock(16, 0, 1, 10, 10));
    }

    @Test
    public void appsAreGroupedFromTheirRowsByAppId() {
        insertApp(21, "whole", 0, 1000, 0);
        // Rows an operator edited: the smallest step, the strictest limit, the lowest shard's name.
        insertRow(20, "edited", 2, 0, 100, 9000);
        insertRow(20, "edited-later", 5, 0, 50, 0);
        insertRow(20, "edited-later", 9, 0, 200, 7000);

        assertThat(store().apps()).containsExactly(
                new ShardApp(20, "edited", 50, 7000, List.of(2, 5, 9)),
                new ShardApp(21, "whole", 1000, 0, IntStream.range(0, 64).boxed().toList()));
    }

    @Test
    public void noAppsWithoutRows() {
        assertThat(store().apps()).isEmpty();
    }

    @Test
    public void concurrentReservationsNeverOverlapAndLeaveNoGap() throws Exception {
        int step = 10;
        insertRow(30, "concurrent", 4, 0, step, 0);
        int threads = 8;
        int perThread = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch startGate = new CountDownLatch(1);
        List<ShardBlock> blocks = new ArrayList<>();
        try {
            List<Future<List<ShardBlock>>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int blocksPerCall = 1 + t % 3;
                workers.add(pool.submit(() -> {
                    startGate.await();
                    List<ShardBlock> mine = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        mine.add(store().reserve(30, 4, blocksPerCall));
                    }
                    return mine;
                }));
            }
            startGate.countDown();
            for (Future<List<ShardBlock>> worker : workers) {
                blocks.addAll(worker.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        // Every index handed out once, and together they are exactly 1 .. the final max_id.
        Set<Long> indexes = new HashSet<>();
        long total = 0;
        for (ShardBlock block : blocks) {
            assertThat(block.size() % step).isZero();
            total += block.size();
            for (long index = block.firstIndex(); index <= block.lastIndex(); index++) {
                assertThat(indexes.add(index)).as("index %d handed out twice", index).isTrue();
            }
        }
        assertThat(indexes).hasSize((int) total);
        assertThat(blocks.stream().mapToLong(ShardBlock::lastIndex).max().orElseThrow()).isEqualTo(total);
        assertThat(store().reserve(30, 4, 1).firstIndex()).isEqualTo(total + 1);
    }
}
