package org.leafid.jdbc.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.druid.pool.DruidDataSource;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.shard.AppLimitReachedException;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardBlock;
import org.leafid.core.shard.ShardStore;
import org.leafid.core.shard.ShardStoreException;
import org.leafid.testing.ShardStoreContractTest;
import org.leafid.jdbc.session.LeafSqlSessions;

/**
 * The {@link ShardStore} contract for {@link IdAllocRepository} on one database, which a subclass
 * opens a pool on (empty shard tables, one pool per test), and what the repository adds for the
 * admin side: reading rows and creating an app's 64 rows in one transaction. Rows are edited and
 * read with plain JDBC on another connection, so the repository's SQL is checked by what it wrote.
 */
abstract class IdAllocRepositoryContractTest extends ShardStoreContractTest {

    private DruidDataSource pool;
    private IdAllocRepository store;

    /** A new pool on a database whose shard tables exist and are empty; closed after the test. */
    protected abstract DruidDataSource openPool() throws Exception;

    @BeforeEach
    void openStore() throws Exception {
        pool = openPool();
        store = new IdAllocRepository(LeafSqlSessions.create(pool));
    }

    @AfterEach
    void closePool() {
        pool.close();
    }

    @Override
    protected ShardStore store() {
        return store;
    }

    @Override
    protected void insertRow(int appId, String appName, int shardId, long maxId, int step, long maxLimitId) {
        ShardDatabases.insertRow(pool, appId, appName, shardId, maxId, step, maxLimitId);
    }

    @Test
    void reservationIsCommittedToTheRow() {
        insertRow(50, "committed", 6, 0, 100, 0);

        store.reserve(50, 6, 2);

        assertThat(ShardDatabases.maxId(pool, 50, 6)).isEqualTo(200);
    }

    @Test
    void anAppDeletedAndCreatedAgainGoesOnAboveWhatItReservedBefore() {
        insertRow(53, "recreated", 4, 0, 10, 0);
        store.reserve(53, 4, 1);
        store.reserve(53, 4, 3); // indexes 1..40 reserved
        ShardDatabases.update(pool, "DELETE FROM id_alloc WHERE app_id = ?", 53);
        assertThat(store.highWaterOfApp(53)).as("kept after the rows' deletion").isEqualTo(40);

        insertRow(53, "recreated", 4, 0, 10, 0);
        ShardBlock block = store.reserve(53, 4, 1);

        assertThat(block.firstIndex()).isEqualTo(41);
        assertThat(block.lastIndex()).isEqualTo(50);
        assertThat(ShardDatabases.maxId(pool, 53, 4)).isEqualTo(50);
        assertThat(store.marks().movedBackCount()).isEqualTo(1);
    }

    @Test
    void aMaxIdSetBackIsMovedPastTheMarkAndOtherShardsKeepTheirOwn() {
        insertRow(54, "setback", 0, 0, 100, 0);
        insertRow(54, "setback", 1, 0, 100, 0);
        store.reserve(54, 0, 2); // 1..200
        ShardDatabases.update(pool, "UPDATE id_alloc SET max_id = 50 WHERE app_id = 54 AND shard_id = 0");

        assertThat(store.reserve(54, 0, 1).firstIndex()).isEqualTo(201);
        assertThat(store.reserve(54, 1, 1).firstIndex()).as("shard 1 has no mark of shard 0's").isEqualTo(1);
    }

    @Test
    void reservationReachingLongMaxExactlyIsGrantedAndIsTheLast() {
        insertRow(51, "edge", 0, Long.MAX_VALUE - 10, 10, 0);

        assertThat(store.reserve(51, 0, 1).lastIndex()).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> store.reserve(51, 0, 1)).isInstanceOf(AppLimitReachedException.class);
    }

    @Test
    void reservationPassingLongMaxIsRefusedAndChangesNothing() {
        insertRow(52, "overflow", 3, Long.MAX_VALUE - 5, 10, 0);

        assertThatThrownBy(() -> store.reserve(52, 3, 1))
                .isInstanceOf(AppLimitReachedException.class)
                .satisfies(e -> assertThat(((AppLimitReachedException) e).shardId()).isEqualTo(3));
        assertThatThrownBy(() -> store.reserve(52, 3, Integer.MAX_VALUE)).isInstanceOf(AppLimitReachedException.class);
        assertThat(ShardDatabases.maxId(pool, 52, 3)).isEqualTo(Long.MAX_VALUE - 5);
    }

    @Test
    void largestBlocksTimesLargestStepIsComputedWithoutOverflow() {
        insertRow(53, "wide", 0, 0, Integer.MAX_VALUE, 0);

        ShardBlock block = store.reserve(53, 0, Integer.MAX_VALUE);

        assertThat(block.lastIndex()).isEqualTo((long) Integer.MAX_VALUE * Integer.MAX_VALUE);
        assertThat(block.firstIndex()).isEqualTo(1);
    }

    @Test
    void rowWithStepBelowOneIsRefusedNamingTheStepAndChangesNothing() {
        // A negative step would move max_id back and hand out issued indexes again.
        insertRow(54, "bad-step", 0, 500, -1000, 0);

        assertThatThrownBy(() -> store.reserve(54, 0, 1))
                .isInstanceOf(ShardStoreException.class)
                .hasMessageContaining("step -1000")
                .hasMessageContaining("UPDATE id_alloc SET step");
        assertThat(ShardDatabases.maxId(pool, 54, 0)).isEqualTo(500);
    }

    @Test
    void createAppInsertsSixtyFourRowsAtZeroWhoseFirstBlockIsOneToStep() {
        assertThat(store.createApp(60, "orders", 500, 4_294_967_295L, "order ids"))
                .contains(new ShardApp(60, "orders", 500, 4_294_967_295L, IntStream.range(0, 64).boxed().toList()));

        List<IdAllocRow> rows = store.rows(60);
        assertThat(rows).hasSize(64);
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.maxId()).isZero();
            assertThat(row.step()).isEqualTo(500);
            assertThat(row.maxLimitId()).isEqualTo(4_294_967_295L);
            assertThat(row.description()).isEqualTo("order ids");
        });
        assertThat(rows).extracting(IdAllocRow::shardId)
                .containsExactlyElementsOf(IntStream.range(0, 64).boxed().toList());
        assertThat(store.reserve(60, 63, 1)).isEqualTo(new ShardBlock(60, 63, 1, 500, 500));
    }

    @Test
    void createAppWithoutDescriptionStoresNull() {
        store.createApp(0, "zero", 1, 0, null);
        store.createApp(255, "last", 1, 0, null);

        assertThat(store.rows(0)).hasSize(64).allSatisfy(row -> assertThat(row.description()).isNull());
        assertThat(store.rows(255)).hasSize(64);
    }

    @Test
    void createAppOfAnExistingAppInsertsNothingAndKeepsItsRows() {
        // Shard 37 exists: the transaction inserted 0..36 before the key refused 37, and must roll them back.
        insertRow(61, "existing", 37, 4000, 1000, 0);

        assertThat(store.createApp(61, "again", 10, 0, null)).isEmpty();

        assertThat(store.rows(61)).containsExactly(new IdAllocRow(61, "existing", 37, 4000, 1000, 0, "test"));
    }

    @Test
    void createAppTwiceGivesEmptyTheSecondTime() {
        assertThat(store.createApp(62, "twice", 10, 0, null)).isPresent();
        store.reserve(62, 0, 1);

        assertThat(store.createApp(62, "twice", 10, 0, null)).isEmpty();
        assertThat(ShardDatabases.maxId(pool, 62, 0)).isEqualTo(10);
    }

    @Test
    void createAppRefusesValuesOutOfRangeAndInsertsNothing() {
        assertThatThrownBy(() -> store.createApp(256, "big", 10, 0, null)).hasMessageContaining("appId must be 0..255");
        assertThatThrownBy(() -> store.createApp(-1, "neg", 10, 0, null)).hasMessageContaining("appId must be 0..255");
        assertThatThrownBy(() -> store.createApp(63, "step", 0, 0, null))
                .hasMessageContaining("step must be at least 1");
        assertThatThrownBy(() -> store.createApp(63, "limit", 10, -1, null)).hasMessageContaining("maxLimitId");
        assertThatThrownBy(() -> store.createApp(63, " ", 10, 0, null)).hasMessageContaining("appName");
        assertThatThrownBy(() -> store.createApp(63, "x".repeat(129), 10, 0, null)).hasMessageContaining("appName");
        assertThatThrownBy(() -> store.createApp(63, "d", 10, 0, "x".repeat(256)))
                .hasMessageContaining("description");

        assertThat(store.rows()).isEmpty();
    }

    @Test
    void rowsListEveryAppAndShardInOrder() {
        insertRow(71, "b", 1, 30, 10, 0);
        insertRow(70, "a", 2, 20, 10, 100);
        insertRow(71, "b", 0, 40, 10, 0);

        assertThat(store.rows()).containsExactly(
                new IdAllocRow(70, "a", 2, 20, 10, 100, "test"),
                new IdAllocRow(71, "b", 0, 40, 10, 0, "test"),
                new IdAllocRow(71, "b", 1, 30, 10, 0, "test"));
        assertThat(store.rows(72)).isEmpty();
    }
}
