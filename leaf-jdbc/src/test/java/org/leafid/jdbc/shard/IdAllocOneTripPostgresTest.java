package org.leafid.jdbc.shard;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.pool.DruidDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.shard.ShardBlock;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.jdbc.testing.StatementCounter;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * On PostgreSQL a shard block is one statement without a commit of its own; a row set back below its
 * mark still gets a block above it (the transaction takes over). The contract (IdAllocRepositoryPostgresContractTest)
 * covers the rest, concurrent reservations included.
 */
class IdAllocOneTripPostgresTest {

    private static final int APP = 61;

    /** The operator's pool (emptied shard tables, plain JDBC edits). */
    private DruidDataSource pool;
    /** The store's own, counted from its first statement on. */
    private DruidDataSource storePool;
    private StatementCounter counter;
    private IdAllocRepository store;

    @BeforeEach
    void open() throws Exception {
        pool = ShardDatabases.postgres();
        storePool = TestDatabase.postgres().derived("shard").newPool();
        counter = StatementCounter.on(storePool);
        store = new IdAllocRepository(LeafSqlSessions.create(storePool));
        for (int shard = 0; shard < 64; shard++) {
            ShardDatabases.insertRow(pool, APP, "one-trip", shard, 0, 10, 0);
        }
    }

    @AfterEach
    void close() {
        storePool.close();
        pool.close();
    }

    @Test
    void aBlockIsOneStatementWithoutACommitOfItsOwn() {
        store.reserve(APP, 3, 1);
        counter.reset();

        ShardBlock block = store.reserve(APP, 3, 2);

        assertThat(block.firstIndex()).isEqualTo(11);
        assertThat(block.lastIndex()).isEqualTo(30);
        assertThat(counter.statements()).as("statements sent").isEqualTo(1);
        assertThat(counter.commits()).as("separate commits").isZero();
    }

    @Test
    void aRowSetBackBelowItsMarkGetsABlockAboveTheMark() {
        long served = store.reserve(APP, 5, 3).lastIndex(); // 30: the mark
        ShardDatabases.update(pool, "UPDATE id_alloc SET max_id = 0 WHERE app_id = ? AND shard_id = ?", APP, 5);

        ShardBlock block = store.reserve(APP, 5, 1);

        assertThat(block.firstIndex()).isGreaterThan(served);
        assertThat(ShardDatabases.maxId(pool, APP, 5)).isEqualTo(block.lastIndex());
    }
}
