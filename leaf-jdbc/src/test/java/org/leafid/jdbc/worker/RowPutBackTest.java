package org.leafid.jdbc.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.druid.pool.DruidDataSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdLostException;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.WorkerIdRegistry.Registration;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.jdbc.worker.disposable.DisposableWorkerIdRegistry;
import org.leafid.jdbc.worker.mysql.MysqlWorkerIdRegistry;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * A worker-id row that disappeared under its holder (what a failover to a copy that lacked it does,
 * or an operator) is put back under its id at the holder's next write, and a later start gets
 * another id: on MySQL the AUTO_INCREMENT moved past the id put back; PostgreSQL's identity did not,
 * and the start's insert meets the id and takes the next. A row of another start at the id stops the
 * holder. On MariaDB and PostgreSQL, in both modes.
 */
class RowPutBackTest {

    @TempDir
    Path dir;

    private final List<DruidDataSource> pools = new ArrayList<>();

    @AfterEach
    void closePools() {
        pools.forEach(DruidDataSource::close);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "postgresql"})
    void aDisposableRowDeletedUnderItsStartIsPutBackAndTheNextStartGetsAnotherId(String kind) {
        TestDatabase database = database(kind, "WORKER_NODE");
        Registration first = disposable(database, "10.8.0.1").register();
        database.update("DELETE FROM WORKER_NODE WHERE ID = ?", first.workerId());

        first.sink().record(first.workerId(), System.currentTimeMillis());
        nextIdBackTo(database, "WORKER_NODE", "ID", first.workerId());
        Registration next = disposable(database, "10.8.0.2").register();

        assertThat(database.number("SELECT COUNT(*) FROM WORKER_NODE WHERE ID = ? AND HOST_NAME = '10.8.0.1'",
                first.workerId())).as("the first start's row, put back").isOne();
        assertThat(next.workerId()).isNotEqualTo(first.workerId());
        first.sink().record(first.workerId(), System.currentTimeMillis()); // still its own: no exception
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "postgresql"})
    void aDisposableStartWhoseIdAnotherStartWasGivenStopsIssuing(String kind) {
        TestDatabase database = database(kind, "WORKER_NODE");
        Registration first = disposable(database, "10.8.0.1").register();
        // What a promoted copy that lacked the row does: the same ID, written by another start.
        database.update("UPDATE WORKER_NODE SET HOST_NAME = '10.8.0.9' WHERE ID = ?", first.workerId());

        assertThatThrownBy(() -> first.sink().record(first.workerId(), System.currentTimeMillis()))
                .isInstanceOf(WorkerIdLostException.class)
                .hasMessageContaining("WORKER_NODE row " + first.workerId())
                .hasMessageContaining("10.8.0.9");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "postgresql"})
    void aDisposableRowCheckRunsOffTheRenewalAndItsFindingStopsTheNextOne(String kind) {
        TestDatabase database = database(kind, "WORKER_NODE");
        List<Runnable> queued = new ArrayList<>();
        var sessions = LeafSqlSessions.create(pool(database));
        Registration first = new DisposableWorkerIdRegistry(sessions, new InstanceAddress("10.8.0.1", 8080), 1023,
                StoreChangeWait.of(sessions, Duration.ofSeconds(30)), queued::add).register();
        database.update("UPDATE WORKER_NODE SET HOST_NAME = '10.8.0.9' WHERE ID = ?", first.workerId());

        first.sink().record(first.workerId(), System.currentTimeMillis()); // returns at once: the check is queued
        assertThat(queued).hasSize(1);
        first.sink().record(first.workerId(), System.currentTimeMillis()); // one check at a time
        assertThat(queued).hasSize(1);
        queued.get(0).run();

        assertThatThrownBy(() -> first.sink().record(first.workerId(), System.currentTimeMillis()))
                .isInstanceOf(WorkerIdLostException.class).hasMessageContaining("10.8.0.9");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "postgresql"})
    void aMysqlModeRowDeletedUnderItsHolderIsPutBackAndTheNextInstanceGetsAnotherId(String kind) {
        TestDatabase database = database(kind, "leaf_workerid_alloc");
        Registration first = mysql(database, "10.8.0.1").register();
        database.update("DELETE FROM leaf_workerid_alloc WHERE ip = '10.8.0.1'");

        first.sink().record(first.workerId(), System.currentTimeMillis() + 1_000);
        nextIdBackTo(database, "leaf_workerid_alloc", "id", first.workerId() + 1L);
        Registration next = mysql(database, "10.8.0.2").register();

        assertThat(database.number("SELECT id FROM leaf_workerid_alloc WHERE ip = '10.8.0.1'"))
                .as("the first instance's row id, put back").isEqualTo(first.workerId() + 1L);
        assertThat(next.workerId()).isNotEqualTo(first.workerId());
    }

    private TestDatabase database(String kind, String table) {
        TestDatabase database = (kind.equals("postgresql") ? TestDatabase.postgres() : TestDatabase.get())
                .derived("putback");
        database.truncateRestartingIds(table);
        database.update("DELETE FROM leaf_high_water");
        return database;
    }

    /**
     * A copy whose identity sequence is behind the id put back (its last WAL record lost too): the
     * next insert meets it. MySQL's AUTO_INCREMENT never goes below the highest id: nothing to do.
     */
    private static void nextIdBackTo(TestDatabase database, String table, String column, long id) {
        if (database.dialect() == SqlDialect.POSTGRESQL) {
            database.number("SELECT setval(pg_get_serial_sequence('" + table.toLowerCase(Locale.ROOT) + "', '"
                    + column.toLowerCase(Locale.ROOT) + "'), ?, false)", id);
        }
    }

    private WorkerIdRegistry disposable(TestDatabase database, String ip) {
        return new DisposableWorkerIdRegistry(LeafSqlSessions.create(pool(database)), new InstanceAddress(ip, 8080),
                1023);
    }

    private WorkerIdRegistry mysql(TestDatabase database, String ip) {
        return new MysqlWorkerIdRegistry(LeafSqlSessions.create(pool(database)), new InstanceAddress(ip, 8080),
                new WorkerCacheFiles(dir.resolve(ip), "leaf", 8080).registry());
    }

    private DruidDataSource pool(TestDatabase database) {
        DruidDataSource pool = database.newPool();
        pools.add(pool);
        return pool;
    }
}
