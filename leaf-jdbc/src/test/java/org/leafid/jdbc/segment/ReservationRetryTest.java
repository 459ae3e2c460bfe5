package org.leafid.jdbc.segment;

import java.util.stream.Collectors;
import java.nio.charset.StandardCharsets;
import java.io.InputStream;
import java.io.IOException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.alibaba.druid.pool.DruidDataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.jdbc.SqlFailures.TryAgain;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * Reservations the database answers "try again" are run again, not turned into failures: many
 * reservations of one tag by two stores on PostgreSQL under REPEATABLE READ (where a concurrent
 * update is a serialization failure), a deadlock on MariaDB with an operator's transaction; and a
 * {@code leaf_high_water} dropped under a running store is refused, never re-created empty.
 * Every block is collected and checked for overlap.
 */
class ReservationRetryTest {

    private final List<DruidDataSource> pools = new ArrayList<>();
    private final ExecutorService threads = Executors.newFixedThreadPool(9);

    @AfterEach
    void closeAll() throws Exception {
        threads.shutdownNow();
        threads.awaitTermination(10, TimeUnit.SECONDS);
        pools.forEach(DruidDataSource::close);
    }

    @Test
    void serializationFailuresOnPostgresRepeatableReadAreRetriedAndNoBlockOverlaps() throws Exception {
        TestDatabase database = TestDatabase.postgres();
        String tag = database.newTag("retry-rr", 0, 10);
        String isolation = "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ";
        LeafAllocRepository first = new LeafAllocRepository(LeafSqlSessions.create(pool(database, isolation)));
        LeafAllocRepository second = new LeafAllocRepository(LeafSqlSessions.create(pool(database, isolation)));

        AtomicLong exhausted = new AtomicLong();
        List<Future<List<AllocRow>>> runs = new ArrayList<>();
        for (int thread = 0; thread < 4; thread++) {
            LeafAllocRepository store = thread % 2 == 0 ? first : second;
            runs.add(threads.submit(reservationsOutlastingRetries(store, tag, 120, exhausted)));
        }
        List<AllocRow> blocks = new ArrayList<>();
        for (Future<List<AllocRow>> run : runs) {
            blocks.addAll(run.get(120, TimeUnit.SECONDS));
        }

        assertThat(blocks).hasSize(480);
        Blocks.assertDisjoint(blocks, 10);
        long retried = first.retries().retries(TryAgain.SERIALIZATION_FAILURE)
                + second.retries().retries(TryAgain.SERIALIZATION_FAILURE);
        assertThat(retried).as("serialization failures met and retried").isPositive();
        // Four threads on one row in tight loops, on 2 busy cores, now and then lose all 10 attempts:
        // such a reservation is refused (its transaction rolled back, nothing reserved), never a repeat.
        assertThat(exhausted.get()).as("reservations refused after every attempt").isLessThanOrEqualTo(24);
        assertThat(database.maxId(tag)).isEqualTo(480L * 10);
    }

    @Test
    void aDeadlockWithAnOperatorsTransactionOnMariaDbIsRetried() throws Exception {
        TestDatabase database = TestDatabase.get();
        String tag = database.newTag("retry-deadlock", 0, 100);
        LeafAllocRepository store = new LeafAllocRepository(LeafSqlSessions.create(pool(database, null)));
        AllocRow before = store.reserve(tag, 100); // its mark exists from here on
        database.update(ballastTable());

        try (Connection operator = database.connect(); Statement sql = operator.createStatement()) {
            operator.setAutoCommit(false);
            // A transaction heavier than a reservation, so that InnoDB chooses the reservation as the victim.
            for (int i = 0; i < 20; i++) {
                sql.execute("INSERT INTO retry_ballast(n) VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)");
            }
            sql.executeUpdate("UPDATE leaf_high_water SET high = high WHERE name = 'leaf_alloc:" + tag + "'");
            Future<AllocRow> reservation = threads.submit(() -> store.reserve(tag, 100));
            // INNODB_TRX is server-wide: only a lock wait in this test's database is the reservation's.
            await().atMost(Duration.ofSeconds(20)).until(() -> database.number(
                    "SELECT COUNT(*) FROM information_schema.INNODB_TRX t JOIN information_schema.PROCESSLIST p"
                    + " ON p.ID = t.trx_mysql_thread_id WHERE t.trx_state = 'LOCK WAIT' AND p.DB = DATABASE()") > 0);
            // The reservation holds leaf_alloc's row and waits for the mark; this waits for the row: a deadlock.
            sql.executeUpdate("UPDATE leaf_alloc SET description = description WHERE biz_tag = '" + tag + "'");
            operator.commit();

            AllocRow after = reservation.get(30, TimeUnit.SECONDS);
            assertThat(store.retries().retries(TryAgain.DEADLOCK)).isEqualTo(1);
            Blocks.assertDisjoint(List.of(before, after), 100);
        } finally {
            database.update("DROP TABLE IF EXISTS retry_ballast");
        }
    }

    @Test
    void aMarkTableDroppedUnderARunningStoreIsRefusedAndNotCreatedAgain() {
        TestDatabase database = TestDatabase.get().derived("marks_dropped");
        try {
            String tag = database.newTag("marks-dropped", 0, 100);
            LeafAllocRepository store = new LeafAllocRepository(LeafSqlSessions.create(pool(database, null)));
            store.reserve(tag, 100);
            database.update("DROP TABLE leaf_high_water");

            for (int attempt = 0; attempt < 3; attempt++) {
                assertThatThrownBy(() -> store.reserve(tag, 100)).isInstanceOf(SegmentStoreException.class)
                        .hasMessageContaining("leaf_high_water").hasMessageContaining("sql/leaf_high_water.sql")
                        .hasMessageContaining("not re-created");
            }
            assertThat(database.number("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? "
                    + "AND TABLE_NAME = 'leaf_high_water'", database.name())).isZero();
        } finally {
            pools.forEach(DruidDataSource::close);
            pools.clear();
            database.drop();
        }
    }

    @Test
    void aStoreThatNeverSawTheMarkTableCreatesItOnceAndReserves() {
        TestDatabase database = TestDatabase.get().derived("marks_first_use");
        try {
            database.update("DROP TABLE leaf_high_water");
            String tag = database.newTag("marks-first", 0, 100);
            LeafAllocRepository store = new LeafAllocRepository(LeafSqlSessions.create(pool(database, null)));

            assertThat(store.reserve(tag, 100).maxId()).isEqualTo(100);
            assertThat(database.number("SELECT high FROM leaf_high_water WHERE name = ?", "leaf_alloc:" + tag))
                    .isEqualTo(100);
        } finally {
            pools.forEach(DruidDataSource::close);
            pools.clear();
            database.drop();
        }
    }

    /**
     * Servers started together on a database that holds Meituan Leaf's {@code leaf_alloc} only: the
     * first reservations create {@code leaf_high_water} while others' transactions run ("table
     * definition has changed" on MariaDB), and none of them may fail or overlap.
     */
    @Test
    void storesStartingTogetherOnADatabaseWithoutTheMarkTableAllReserveWithoutOverlap() throws Exception {
        TestDatabase database = TestDatabase.get().derived("marks_together");
        try {
            database.update("DROP TABLE leaf_high_water");
            String tag = database.newTag("together", 0, 10);
            List<Future<List<AllocRow>>> runs = new ArrayList<>();
            for (int store = 0; store < 6; store++) {
                runs.add(threads.submit(reservations(
                        new LeafAllocRepository(LeafSqlSessions.create(pool(database, null))), tag, 40)));
            }
            List<AllocRow> blocks = new ArrayList<>();
            for (Future<List<AllocRow>> run : runs) {
                blocks.addAll(run.get(120, TimeUnit.SECONDS));
            }
            assertThat(blocks).hasSize(240);
            Blocks.assertDisjoint(blocks, 10);
        } finally {
            pools.forEach(DruidDataSource::close);
            pools.clear();
            database.drop();
        }
    }

    @Test
    void anAnswerThatIsNotTryAgainIsNotRetried() {
        List<Long> pauses = new ArrayList<>();
        Sleeper recording = pauses::add;
        TestDatabase database = TestDatabase.get();
        DruidDataSource pool = pool(database, null);
        LeafAllocRepository store = new LeafAllocRepository(LeafSqlSessions.create(pool), recording);

        assertThatThrownBy(() -> store.reserve("no-such-tag-" + System.nanoTime(), 10)).isNotNull();
        assertThat(pauses).isEmpty();
    }

    /** {@code count} blocks; a reservation refused after every retry of a serialization failure is counted and made again. */
    private static Callable<List<AllocRow>> reservationsOutlastingRetries(LeafAllocRepository store, String tag,
            int count, AtomicLong exhausted) {
        return () -> {
            List<AllocRow> rows = new ArrayList<>();
            while (rows.size() < count) {
                try {
                    rows.add(store.reserve(tag, 10));
                } catch (SegmentStoreException refused) {
                    if (!String.valueOf(refused.getMessage()).contains("could not serialize access")) {
                        throw refused;
                    }
                    exhausted.incrementAndGet();
                }
            }
            return rows;
        };
    }

    private static Callable<List<AllocRow>> reservations(LeafAllocRepository store, String tag, int count) {
        return () -> {
            List<AllocRow> rows = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                rows.add(store.reserve(tag, 10));
            }
            return rows;
        };
    }

    private DruidDataSource pool(TestDatabase database, String initSql) {
        DruidDataSource pool = database.newPool();
        if (initSql != null) {
            pool.setConnectionInitSqls(List.of(initSql));
        }
        pools.add(pool);
        return pool;
    }

    /** The DDL of the scratch table, kept beside the tests' other SQL rather than in Java. */
    private static String ballastTable() throws IOException {
        try (InputStream in = ReservationRetryTest.class.getResourceAsStream("/sql/retry_ballast.sql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.startsWith("--")).collect(Collectors.joining("\n")).strip();
        }
    }
}
