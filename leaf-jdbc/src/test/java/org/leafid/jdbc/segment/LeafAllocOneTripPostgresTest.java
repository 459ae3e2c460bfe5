package org.leafid.jdbc.segment;

import static org.assertj.core.api.Assertions.assertThat;

import static org.awaitility.Awaitility.await;

import com.alibaba.druid.pool.DruidDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.segment.AllocRow;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.jdbc.testing.StatementCounter;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * On PostgreSQL a reservation is one statement and no separate commit (one round trip), counted at the
 * pool; concurrent reservations by two "servers" (two pools) never overlap; a row set back below its
 * mark still gets a block above it (the transaction path takes over).
 */
class LeafAllocOneTripPostgresTest {

    private final TestDatabase database = TestDatabase.postgres();
    private final List<DruidDataSource> pools = new ArrayList<>();
    private StatementCounter counter;

    @AfterEach
    void closePools() {
        pools.forEach(DruidDataSource::close);
    }

    private LeafAllocRepository store() {
        DruidDataSource pool = database.newPool();
        counter = StatementCounter.on(pool);
        pools.add(pool);
        return new LeafAllocRepository(LeafSqlSessions.create(pool));
    }

    @Test
    void aReservationIsOneStatementWithoutACommitOfItsOwn() {
        LeafAllocRepository store = store();
        String tag = database.newTag("one-trip", 1, 100);
        store.reserve(tag, 1); // the first one may create nothing, but warms the pool's connection
        counter.reset();

        AllocRow row = store.reserve(tag, 1);

        assertThat(row.maxId()).isEqualTo(201);
        assertThat(counter.statements()).as("statements sent").isEqualTo(1);
        assertThat(counter.commits()).as("separate commits").isZero();
        assertThat(database.number("SELECT high FROM leaf_high_water WHERE name = ?", "leaf_alloc:" + tag))
                .isEqualTo(201);
        database.deleteTag(tag);
    }

    @Test
    void twoServersReservingAtOnceNeverGetTheSameBlock() throws Exception {
        LeafAllocRepository first = store();
        LeafAllocRepository second = store();
        String tag = database.newTag("one-trip-race", 1, 10);
        Set<Long> ids = ConcurrentHashMap.newKeySet();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                LeafAllocRepository store = t % 2 == 0 ? first : second;
                running.add(threads.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        AllocRow row = store.reserve(tag, 1);
                        for (long id = row.maxId() - row.step(); id < row.maxId(); id++) {
                            if (!ids.add(id)) {
                                throw new AssertionError("ID " + id + " reserved twice");
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(ids).hasSize(8 * 50 * 10);
        assertThat(Collections.max(ids)).isEqualTo(database.maxId(tag) - 1);
        database.deleteTag(tag);
    }

    @Test
    void aRowSetBackBelowItsMarkGetsABlockAboveTheMark() {
        LeafAllocRepository store = store();
        String tag = database.newTag("one-trip-back", 1, 100);
        long served = store.reserve(tag, 1).maxId(); // 101: the mark
        database.update("UPDATE leaf_alloc SET max_id = 1 WHERE biz_tag = ?", tag); // an operator's mistake

        AllocRow row = store.reserve(tag, 1);

        assertThat(row.maxId() - row.step()).isGreaterThanOrEqualTo(served);
        database.deleteTag(tag);
    }

    /**
     * A reservation whose statement began before another server's committed (its snapshot holds the
     * older mark) and that waits for the row lock meanwhile, while that server's block is followed by
     * an operator setting {@code max_id} back to its start: the row then hands the waiting statement
     * the block just served. The mark must be compared as it is now, not as the snapshot had it.
     */
    @Test
    void aReservationWaitingForTheRowIsNotFooledByAMarkItsSnapshotMissed() throws Exception {
        LeafAllocRepository store = store();
        String tag = database.newTag("stale-mark", 1, 10);
        store.reserve(tag, 1); // [1, 11), mark 11
        ExecutorService threads = Executors.newSingleThreadExecutor();
        try (Connection other = database.connect()) {
            other.setAutoCommit(false);
            // Another server reserves [11, 21) and raises the mark; an operator sets max_id back to 11.
            execute(other, "UPDATE leaf_alloc SET max_id = max_id + 10 WHERE biz_tag = ?", tag);
            execute(other, "UPDATE leaf_high_water SET high = 21 WHERE name = ?", "leaf_alloc:" + tag);
            execute(other, "UPDATE leaf_alloc SET max_id = 11 WHERE biz_tag = ?", tag);
            Future<AllocRow> waiting = threads.submit(() -> store.reserve(tag, 1));
            await().atMost(Duration.ofSeconds(10)).until(() -> database.number(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%leaf_alloc%'")
                    > 0);
            other.commit();

            AllocRow row = waiting.get(10, TimeUnit.SECONDS);
            assertThat(row.maxId() - 10).as("the first number of the block served after the set-back")
                    .isGreaterThanOrEqualTo(21);
        } finally {
            threads.shutdownNow();
        }
        database.deleteTag(tag);
    }

    private static void execute(Connection connection, String sql, String parameter) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, parameter);
            statement.executeUpdate();
        }
    }
}
