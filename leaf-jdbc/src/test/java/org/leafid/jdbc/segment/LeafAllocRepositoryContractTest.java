package org.leafid.jdbc.segment;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.pool.DruidDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStore;
import org.leafid.testing.SegmentStoreContractTest;
import org.leafid.jdbc.reservation.HighWaterMarks;
import org.leafid.jdbc.session.LeafSqlSessions;

/**
 * The {@link SegmentStore} contract for {@link LeafAllocRepository} on one database, which a
 * subclass opens a pool on; each test has a store and pool of its own. Rows are edited with plain
 * JDBC on another connection of the pool, as an operator's client would, so the store's own SQL
 * is checked by what it reads back.
 */
abstract class LeafAllocRepositoryContractTest extends SegmentStoreContractTest {

    private DruidDataSource pool;
    private LeafAllocRepository store;

    /** A new pool on a database with {@code leaf_alloc}; closed after the test. */
    protected abstract DruidDataSource openPool() throws Exception;

    @BeforeEach
    void openStore() throws Exception {
        pool = openPool();
        store = new LeafAllocRepository(LeafSqlSessions.create(pool));
    }

    @AfterEach
    void closePool() {
        pool.close();
    }

    @Override
    protected SegmentStore store() {
        return store;
    }

    @Override
    protected void insert(String tag, long maxId, int step) {
        update("INSERT INTO leaf_alloc(biz_tag, max_id, step, description) VALUES (?, ?, ?, 'contract')",
                tag, maxId, step);
    }

    @Override
    protected void delete(String tag) {
        update("DELETE FROM leaf_alloc WHERE biz_tag = ?", tag);
    }

    @Override
    protected void updateStep(String tag, int step) {
        update("UPDATE leaf_alloc SET step = ? WHERE biz_tag = ?", step, tag);
    }

    @Test
    public void reservationIsCommittedToTheRow() {
        String tag = newTag("committed");
        insert(tag, 1, 100);

        AllocRow row = store().reserve(tag, 1);

        // Read on a connection of its own: the store committed, it did not just compute the sum.
        assertThat(row.maxId()).isEqualTo(101);
        assertThat(maxId(tag)).isEqualTo(101);
    }

    @Test
    public void aMaxIdSetBackIsMovedPastTheHighestMaxIdReserved() {
        String tag = newTag("setback");
        insert(tag, 1, 100);
        assertThat(store().reserve(tag, 1).maxId()).isEqualTo(101); // issues 1..100
        assertThat(store().reserve(tag, 1).maxId()).isEqualTo(201); // issues 101..200

        update("UPDATE leaf_alloc SET max_id = ? WHERE biz_tag = ?", 51, tag); // an operator's mistake

        AllocRow row = store().reserve(tag, 1);
        // Leaf's block (maxId - 100, maxId] would be 51..150, issued before: it starts at the mark instead.
        assertThat(row.maxId() - 100).isEqualTo(201);
        assertThat(maxId(tag)).isEqualTo(301);
        assertThat(marks().movedBackCount()).isEqualTo(1);
    }

    @Test
    public void aTagDeletedAndInsertedAgainGoesOnAboveItsMark() {
        String tag = newTag("recreated");
        insert(tag, 1, 1000);
        store().reserve(tag, 1);
        store().reserve(tag, 1);
        delete(tag);
        assertThat(marks().highest(tag)).as("kept after the row's deletion").isEqualTo(2001);

        insert(tag, 1, 1000);

        assertThat(store().reserve(tag, 1).maxId() - 1000).isEqualTo(2001);
    }

    @Test
    public void concurrentReservationsWhileAnOperatorSetsMaxIdBackNeverOverlap() throws Exception {
        String tag = newTag("setback-race");
        insert(tag, 1, 10);
        int threads = 4;
        int perThread = 60;
        ExecutorService workers = Executors.newFixedThreadPool(threads + 1);
        try {
            List<Future<List<long[]>>> reservers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                reservers.add(workers.submit(() -> {
                    List<long[]> blocks = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        AllocRow row = store().reserve(tag, 1);
                        blocks.add(new long[] {row.maxId() - 10, row.maxId()});
                    }
                    return blocks;
                }));
            }
            Future<?> operator = workers.submit(() -> {
                for (int i = 1; i <= 20; i++) {
                    execute("UPDATE leaf_alloc SET max_id = ? WHERE biz_tag = ?", 1 + 10 * i, tag);
                    Thread.sleep(5);
                }
                return null;
            });
            operator.get(60, TimeUnit.SECONDS);
            BitSet issued = new BitSet();
            int blocks = 0;
            for (Future<List<long[]>> reserver : reservers) {
                for (long[] block : reserver.get(60, TimeUnit.SECONDS)) {
                    for (long n = block[0]; n < block[1]; n++) {
                        assertThat(issued.get((int) n)).as("number %d issued twice", n).isFalse();
                        issued.set((int) n);
                    }
                    blocks++;
                }
            }
            assertThat(blocks).isEqualTo(threads * perThread);
            assertThat(issued.cardinality()).isEqualTo(threads * perThread * 10);
        } finally {
            workers.shutdownNow();
        }
    }

    protected HighWaterMarks marks() {
        return store.marks();
    }

    /** {@code max_id} of the row as another client sees it. */
    protected long maxId(String tag) {
        try (Connection connection = pool.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT max_id FROM leaf_alloc WHERE biz_tag = ?")) {
            select.setString(1, tag);
            try (ResultSet rows = select.executeQuery()) {
                assertThat(rows.next()).as("a row for %s", tag).isTrue();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the row of " + tag, e);
        }
    }

    protected void update(String sql, Object... parameters) {
        assertThat(execute(sql, parameters)).as(sql).isEqualTo(1);
    }

    /** Runs a statement on a connection of its own, as an operator's client would; the rows changed. */
    protected int execute(String sql, Object... parameters) {
        try (Connection connection = pool.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
