package org.leafid.jdbc.worker.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import com.alibaba.druid.pool.DruidDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.testing.FakeClock;
import org.leafid.testing.TcpProxy;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservationFile;
import org.leafid.core.worker.ReservingWorkerIdHolder;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdLostException;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.worker.WorkerLease;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * {@link MysqlWorkerIdRegistry} against the real MySQL-protocol database, driven by the holder and
 * generator the server uses. Each test names its instances with an IP of its own, so tests sharing
 * the table do not see each other's rows, and deletes them afterwards. What every registry does
 * (restart, reservations ahead of the clock, outage, crash) is in {@link MysqlWorkerIdRegistryContractTest};
 * here what only {@code mysql} has: the rows, their numbering, and the pool coming back after an outage.
 */
class MysqlWorkerIdRegistryTest {

    private static final Duration REPORT_INTERVAL = Duration.ofSeconds(3);
    private static final long START_MILLIS = 1_750_000_000_000L;

    private final TestDatabase database = TestDatabase.get();
    private final String ip = "10.0." + ThreadLocalRandom.current().nextInt(256) + "."
            + ThreadLocalRandom.current().nextInt(1, 255);
    private final FakeClock clock = new FakeClock(START_MILLIS);
    private final List<DruidDataSource> pools = new ArrayList<>();
    private final List<ReservingWorkerIdHolder> holders = new ArrayList<>();
    private final List<TcpProxy> proxies = new ArrayList<>();

    @TempDir
    Path dataDir;

    @BeforeEach
    void resetCounter() {
        // TestDatabase created the table from sql/leaf_workerid_alloc.sql.
        // Deleted rows leave the AUTO_INCREMENT counter where it was; move it back to max(id) + 1 so
        // that test runs keep getting row ids below 1024.
        database.update("ALTER TABLE leaf_workerid_alloc AUTO_INCREMENT = 1");
    }

    @AfterEach
    void cleanUp() throws IOException {
        holders.forEach(ReservingWorkerIdHolder::close);
        for (TcpProxy proxy : proxies) {
            proxy.close();
        }
        pools.forEach(DruidDataSource::close);
        database.update("DELETE FROM leaf_workerid_alloc WHERE ip = ?", ip);
    }

    // The numbering (row id - 1) and one row per ip:port, reused on restart: the contract sees only the ids.
    @Test
    void instancesGetConsecutiveWorkerIdsAndARestartGetsItsOwnBack() {
        ReservingWorkerIdHolder first = start(registry(8080), Duration.ofSeconds(10));
        int k = first.workerId();
        ReservingWorkerIdHolder second = start(registry(8081), Duration.ofSeconds(10));

        assertThat(second.workerId()).isEqualTo(k + 1);
        assertThat(rowId(ip + ":8080")).isEqualTo(k + 1L);

        first.release(clock.millis()); // a graceful stop: a crashed holder's row is refused for the holder lease
        ReservingWorkerIdHolder restarted = start(registry(8080), Duration.ofSeconds(10));
        assertThat(restarted.workerId()).isEqualTo(k);
        assertThat(rowCount()).isEqualTo(2);
    }

    // Pins where the reservation is kept (max_timestamp, the cache file); the contract sees it only through register().
    @Test
    void renewalWritesTheReservationToTheRowAndTheCacheFile() {
        ReservingWorkerIdHolder holder = start(registry(8080), Duration.ofSeconds(5));
        clock.advance(REPORT_INTERVAL);

        holder.renew();

        long expected = clock.millis() + 2 * REPORT_INTERVAL.toMillis();
        assertThat(holder.lease().reservedUntilMillis()).isEqualTo(expected);
        assertThat(maxTimestamp(ip + ":8080")).isEqualTo(expected);
        assertThat(cache(8080).read()).contains(new ReservationFile.Recorded(holder.workerId(), expected));
    }

    @Test
    void databaseDownWhileRunningStopsIssuingOnceTheConfirmedWindowEndsAndTheRowCatchesUpWhenItIsBack()
            throws IOException {
        TcpProxy proxy = proxy();
        AtomicLong nanos = new AtomicLong();
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(registry(pool(proxy), 8080), clock, clock,
                REPORT_INTERVAL, Duration.ofSeconds(10), nanos::get);
        holders.add(holder);
        holder.start();
        WorkerLease confirmed = holder.lease();
        proxy.cut();

        // The renewal reaches the cache file (the next start on this machine honours it), not the row:
        // it does not count.
        clock.advance(REPORT_INTERVAL);
        assertThatThrownBy(holder::renew).isInstanceOf(WorkerIdUnavailableException.class);
        assertThat(holder.lease()).isEqualTo(confirmed);
        assertThat(cache(8080).read().orElseThrow().reservedUntilMillis())
                .isGreaterThan(confirmed.reservedUntilMillis());
        nanos.addAndGet(2 * REPORT_INTERVAL.toNanos());
        assertThatThrownBy(holder::lease).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("has not been confirmed by its registry");

        proxy.restore();
        // The pool replaces its broken connections in real time: a bounded wait.
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .ignoreException(WorkerIdUnavailableException.class).untilAsserted(holder::renew);
        assertThat(holder.lease().covers(clock.millis())).isTrue();
        assertThat(maxTimestamp(ip + ":8080")).isEqualTo(holder.lease().reservedUntilMillis());
    }

    @Test
    void databaseDownAtStartFailsTheStartEvenWithACacheFile() throws IOException {
        TcpProxy proxy = proxy();
        ReservingWorkerIdHolder before = start(registry(pool(proxy), 8080), Duration.ofSeconds(10));
        before.release(clock.millis());
        proxy.cut();

        assertThatThrownBy(() -> start(registry(pool(proxy), 8080), Duration.ofSeconds(10)))
                .isInstanceOf(WorkerIdUnavailableException.class).hasMessageContaining("cannot be reached")
                .hasMessageContaining("no cached id is safe");
    }

    @Test
    void refusalByTheDatabaseFailsTheStartEvenWithACacheFile() {
        cache(8080).record(3, START_MILLIS - 1_000);
        DruidDataSource pool = pool();
        pool.setPassword("not-the-password");
        pool.setMaxWait(1_000);
        pool.setBreakAfterAcquireFailure(false);
        ReservingWorkerIdHolder holder = holder(registry(pool, 8080), Duration.ofSeconds(5));

        // The database answered: a configuration error to fix, not an outage to ride out on the cache.
        assertThatThrownBy(holder::start).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("check leaf.jdbc.username and leaf.jdbc.password");
    }

    @Test
    void moreThan1024RowsIsAClearStartUpError() {
        database.update("INSERT INTO leaf_workerid_alloc(id, ip_port, ip, port) VALUES (1025, ?, ?, 8080)",
                ip + ":8080", ip);
        try {
            assertThatThrownBy(() -> registry(8080).register()).isInstanceOf(WorkerIdUnavailableException.class)
                    .hasMessageContaining("more than 1024 rows")
                    .hasMessageContaining(ip + ":8080")
                    .hasMessageContaining("retired");
        } finally {
            database.update("DELETE FROM leaf_workerid_alloc WHERE id = 1025");
            database.update("ALTER TABLE leaf_workerid_alloc AUTO_INCREMENT = 1");
        }
    }

    /** A layout of 8 worker bits: row ids 1..256 only. */
    @Test
    void aRowBeyondTheLayoutsWorkerBitsIsAClearStartUpError() {
        database.update("INSERT INTO leaf_workerid_alloc(id, ip_port, ip, port) VALUES (257, ?, ?, 8080)",
                ip + ":8080", ip);
        try {
            assertThatThrownBy(() -> new MysqlWorkerIdRegistry(LeafSqlSessions.create(pool()), new InstanceAddress(ip,
                    8080), cache(8080), 255).register()).isInstanceOf(WorkerIdUnavailableException.class)
                    .hasMessageContaining("more than 256 rows").hasMessageContaining("0..255");
            assertThat(registry(8080).register().workerId()).as("Leaf's 10 bits carry it").isEqualTo(256);
        } finally {
            database.update("DELETE FROM leaf_workerid_alloc WHERE id = 257");
            database.update("ALTER TABLE leaf_workerid_alloc AUTO_INCREMENT = 1");
        }
    }

    @Test
    void deletedRowIsPutBackWithItsIdAtTheNextRenewal() {
        ReservingWorkerIdHolder holder = start(registry(8080), Duration.ofSeconds(5));
        long rowId = rowId(ip + ":8080");
        database.update("DELETE FROM leaf_workerid_alloc WHERE id = ?", rowId);

        clock.advance(REPORT_INTERVAL);
        holder.renew();

        assertThat(rowId(ip + ":8080")).isEqualTo(rowId);
        assertThat(maxTimestamp(ip + ":8080")).isEqualTo(holder.lease().reservedUntilMillis());
    }

    @Test
    void rowGivenToAnotherInstanceLosesTheIdAtTheNextRenewal() {
        ReservingWorkerIdHolder holder = start(registry(8080), Duration.ofSeconds(5));
        database.update("UPDATE leaf_workerid_alloc SET ip_port = ?, port = 9090 WHERE ip_port = ?",
                ip + ":9090", ip + ":8080");

        assertThatThrownBy(holder::renew).isInstanceOf(WorkerIdLostException.class)
                .hasMessageContaining(ip + ":8080");
    }

    @Test
    void aHolderWhoseRowAnotherProcessOfTheAddressTookLosesTheIdAtTheNextRenewal() {
        ReservingWorkerIdHolder holder = start(registry(8080), Duration.ofSeconds(5));
        database.update("UPDATE leaf_workerid_alloc SET holder = ? WHERE ip_port = ?", ip + ":8080/another",
                ip + ":8080");

        assertThatThrownBy(holder::renew).isInstanceOf(WorkerIdLostException.class)
                .hasMessageContaining("held by another live process (" + ip + ":8080/another)");
    }

    @Test
    void aCrashedHoldersRowIsTakenOverOnceItsLastWriteIsOlderThanTheHolderLease() {
        ReservingWorkerIdHolder crashed = start(registry(8080), Duration.ofSeconds(5));
        int workerId = crashed.workerId();
        crashed.close(); // no release
        assertThatThrownBy(() -> registry(8080).register()).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("another live process").hasMessageContaining("If that process was killed");

        database.update("UPDATE leaf_workerid_alloc SET update_time = TIMESTAMP '2000-01-01 00:00:00' "
                + "WHERE ip_port = ?", ip + ":8080"); // its last write, long past
        // The new holder waits out the crashed one's reservation (on the fake clock), then has its id.
        assertThat(start(registry(8080), Duration.ofSeconds(10)).workerId()).isEqualTo(workerId);
    }

    /** A table made by an earlier sql/leaf_workerid_alloc.sql, in a database of this test's own. */
    @Test
    void aTableWithoutTheHolderColumnIsAClearStartErrorNamingTheAlter() {
        TestDatabase old = database.derived("noholder");
        try {
            old.update("ALTER TABLE leaf_workerid_alloc DROP COLUMN holder");
            DruidDataSource pool = old.newPool();
            pools.add(pool);
            assertThatThrownBy(() -> registry(pool, 8080).register()).isInstanceOf(WorkerIdUnavailableException.class)
                    .hasMessageContaining("no holder column")
                    .hasMessageContaining("ALTER TABLE leaf_workerid_alloc ADD COLUMN holder varchar(128) NULL");
        } finally {
            old.drop();
        }
    }

    // --- helpers ---

    private ReservingWorkerIdHolder start(MysqlWorkerIdRegistry registry, Duration maxStartWait) {
        ReservingWorkerIdHolder holder = holder(registry, maxStartWait);
        holder.start();
        return holder;
    }

    private ReservingWorkerIdHolder holder(MysqlWorkerIdRegistry registry, Duration maxStartWait) {
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(registry, clock, clock, REPORT_INTERVAL,
                maxStartWait);
        holders.add(holder);
        return holder;
    }

    private MysqlWorkerIdRegistry registry(int port) {
        return registry(pool(), port);
    }

    private MysqlWorkerIdRegistry registry(DruidDataSource pool, int port) {
        return new MysqlWorkerIdRegistry(LeafSqlSessions.create(pool), new InstanceAddress(ip, port), cache(port));
    }

    private ReservationFile cache(int port) {
        return new WorkerCacheFiles(dataDir, "leaf", port).registry();
    }

    private DruidDataSource pool() {
        DruidDataSource pool = database.newPool();
        pools.add(pool);
        return pool;
    }

    /** A pool that reaches the database through {@code proxy}, with short waits as the server sets them. */
    private DruidDataSource pool(TcpProxy proxy) {
        DruidDataSource pool = pool();
        pool.setUrl(database.urlThrough(proxy));
        pool.setMaxWait(1_000);
        pool.setConnectTimeout(1_000);
        pool.setSocketTimeout(2_000);
        pool.setBreakAfterAcquireFailure(false);
        return pool;
    }

    private TcpProxy proxy() throws IOException {
        String[] target = database.hostAndPort();
        TcpProxy proxy = new TcpProxy(target[0], Integer.parseInt(target[1]));
        proxies.add(proxy);
        return proxy;
    }

    private long rowId(String ipPort) {
        return queryLong("SELECT id FROM leaf_workerid_alloc WHERE ip_port = ?", ipPort);
    }

    private long maxTimestamp(String ipPort) {
        return queryLong("SELECT max_timestamp FROM leaf_workerid_alloc WHERE ip_port = ?", ipPort);
    }

    private long rowCount() {
        return queryLong("SELECT COUNT(*) FROM leaf_workerid_alloc WHERE ip = ?", ip);
    }

    private long queryLong(String sql, String parameter) {
        try (Connection connection = database.connect(); PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, parameter);
            try (ResultSet rows = select.executeQuery()) {
                assertThat(rows.next()).as("a row for %s", parameter).isTrue();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
