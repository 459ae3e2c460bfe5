package org.leafid.jdbc.segment;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.pool.DruidDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStore;
import org.leafid.core.testing.SegmentStoreContractTest;
import org.leafid.jdbc.LeafSqlSessions;

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

    private void update(String sql, Object... parameters) {
        try (Connection connection = pool.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            assertThat(statement.executeUpdate()).as(sql).isEqualTo(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
