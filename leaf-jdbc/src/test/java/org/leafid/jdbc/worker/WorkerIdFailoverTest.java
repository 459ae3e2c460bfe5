package org.leafid.jdbc.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.druid.pool.DruidDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservingWorkerIdHolder;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.jdbc.worker.disposable.DisposableWorkerIdRegistry;
import org.leafid.jdbc.worker.mysql.MysqlWorkerIdRegistry;
import org.leafid.testing.SnowflakeIssuer;
import org.leafid.testing.TcpProxy;
import org.leafid.testing.jdbc.MariadbServer;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * A worker id handed out just before a failover, lost with the rows the replica had not applied:
 * the promoted replica's AUTO_INCREMENT would give it to the next start while its holder still
 * issues. A MariaDB primary and a replica applying events two seconds late ({@code MASTER_DELAY});
 * each process reaches the database through an address of its own that moves to the replica
 * (a {@link TcpProxy}); the holder's moves only after the new process began its start, as a pool
 * that is slow to reconnect. Every ID of both is collected; none may repeat, and the new process
 * must not be given the id the old one issues with.
 */
@Tag("full-fault-suite")
class WorkerIdFailoverTest {

    private static final Duration REPORT_INTERVAL = Duration.ofMillis(200);
    /** Ten report intervals, as the server sets it. */
    private static final Duration HOLDER_LEASE = REPORT_INTERVAL.multipliedBy(10);
    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.leafDefault();

    @TempDir
    Path dir;

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    @Test
    @Timeout(120)
    void aMysqlModeIdLostInTheFailoverIsNotGivenToANewInstance() throws Exception {
        failOver((sessions, instance) -> new MysqlWorkerIdRegistry(sessions, instance,
                new WorkerCacheFiles(dir.resolve(instance.ip()), "leaf", instance.port()).registry(),
                LAYOUT.maxWorkerId(), HOLDER_LEASE, waitOf(sessions)), "leaf_workerid_alloc", "ip");
    }

    @Test
    @Timeout(120)
    void aDisposableIdLostInTheFailoverIsNotGivenToANewStart() throws Exception {
        failOver((sessions, instance) -> new DisposableWorkerIdRegistry(sessions, instance, LAYOUT.maxWorkerId(),
                waitOf(sessions)), "WORKER_NODE", "HOST_NAME");
    }

    private void failOver(Registries registries, String table, String hostColumn) throws Exception {
        MariadbServer primary = MariadbServer.primary(dir);
        resources.add(primary::close);
        MariadbServer replica = primary.replica(dir, 2);
        resources.add(replica::close);
        TestDatabase database = TestDatabase.prepare(primary.url(), MariadbServer.USER, MariadbServer.PASSWORD);
        TcpProxy first = proxy(primary);

        // The first start records which database the fleet writes to; the replica has it two seconds later.
        holder(registries, database, first, "10.7.0.1");
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> rowsOn(replica, table, hostColumn, "10.7.0.1") == 1);

        ReservingWorkerIdHolder old = holder(registries, database, first, "10.7.0.2");
        SnowflakeIssuer before = new SnowflakeIssuer(LAYOUT, old);
        Thread.sleep(300);
        first.cut(); // the old process's pool has not reached the new primary yet
        primary.kill();
        replica.promote();
        assertThat(rowsOn(replica, table, hostColumn, "10.7.0.2")).as("the old process's row on the promoted replica")
                .isZero();

        TcpProxy second = proxy(replica);
        long startedAt = System.nanoTime();
        CompletableFuture<ReservingWorkerIdHolder> starting = CompletableFuture.supplyAsync(
                () -> holder(registries, database, second, "10.7.0.3"));
        Thread.sleep(500);
        first.retarget("127.0.0.1", replica.port());
        first.restore();
        ReservingWorkerIdHolder started = starting.get(30, TimeUnit.SECONDS);
        long startMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt);
        SnowflakeIssuer after = new SnowflakeIssuer(LAYOUT, started);
        Thread.sleep(1_000);
        before.close();
        after.close();

        System.out.printf("[worker-id failover %s] old worker id %d (%,d IDs, last at +%d ms), new worker id %d"
                + " (%,d IDs), the new start took %d ms%n", table, old.workerId(), before.issued().size(),
                before.lastIssuedMillisAfter(startedAt), started.workerId(), after.issued().size(), startMillis);
        assertThat(started.workerId()).as("the new start's worker id: not the one the old process issues with")
                .isNotEqualTo(old.workerId());
        assertThat(startMillis).as("the new start waited for the old holders (ms)")
                .isGreaterThanOrEqualTo(HOLDER_LEASE.toMillis() - 500);
        assertThat(before.lastIssuedMillisAfter(startedAt)).as("the old process still issues after the new start")
                .isGreaterThan(startMillis);
        assertThat(rowsOn(replica, table, hostColumn, "10.7.0.2")).as("the old process's row, put back").isOne();
        Set<Long> distinct = new HashSet<>(before.issued());
        distinct.addAll(after.issued());
        assertThat(distinct).as("no ID repeated").hasSize(before.issued().size() + after.issued().size());
        assertThat(before.issued().size() + after.issued().size()).as("IDs issued").isGreaterThan(10_000);
    }

    private StoreChangeWait waitOf(SqlSessionFactory sessions) {
        return new StoreChangeWait(sessions, new StoreIdentityGuard(sessions, StoreIdentityGuard.DEFAULT_SKIP_BLOCKS),
                HOLDER_LEASE, Sleeper.system());
    }

    private ReservingWorkerIdHolder holder(Registries registries, TestDatabase database, TcpProxy path, String ip) {
        DruidDataSource pool = database.newPool();
        pool.setUrl(database.urlThrough(path));
        pool.setMaxWait(1_000);
        pool.setConnectTimeout(1_000);
        pool.setSocketTimeout(2_000);
        pool.setBreakAfterAcquireFailure(false);
        resources.add(pool::close);
        WorkerIdRegistry registry = registries.of(LeafSqlSessions.create(pool), new InstanceAddress(ip, 8080));
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(registry, InstantSource.system(),
                Sleeper.system(), REPORT_INTERVAL, Duration.ofSeconds(5));
        resources.add(holder::close);
        holder.start();
        return holder;
    }

    private TcpProxy proxy(MariadbServer server) throws Exception {
        TcpProxy proxy = new TcpProxy("127.0.0.1", server.port());
        resources.add(proxy);
        return proxy;
    }

    private static long rowsOn(MariadbServer server, String table, String hostColumn, String ip) throws Exception {
        try (Connection connection = DriverManager.getConnection(server.url(), MariadbServer.USER,
                MariadbServer.PASSWORD);
                PreparedStatement select = connection.prepareStatement(
                        "SELECT COUNT(*) FROM " + table + " WHERE " + hostColumn + " = ?")) {
            select.setString(1, ip);
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    @FunctionalInterface
    private interface Registries {
        WorkerIdRegistry of(SqlSessionFactory sessions, InstanceAddress instance);
    }
}
