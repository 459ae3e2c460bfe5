package org.leafid.jdbc.segment;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.pool.DruidDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.LeafException;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.SegmentIdGenerator;
import org.leafid.core.segment.SegmentLoadListener;
import org.leafid.core.segment.SegmentSettings;
import org.leafid.core.segment.StepPolicy;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.MariadbServer;
import org.leafid.testing.jdbc.PostgresServer;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * A primary and a copy of its own (a PostgreSQL streaming standby, a MariaDB replica); two stores
 * (two servers, each with its own pool) reach them through one multi-host url and serve segment IDs
 * under load. The primary is killed (a crash) and the copy promoted: a synchronous standby; an
 * asynchronous standby held behind; a MariaDB replica applying events a second late
 * ({@code MASTER_DELAY}). The last two lack the last blocks the servers reserved and served. Every
 * ID is collected; none may repeat.
 */
@Tag("full-fault-suite")
class StoreFailoverTest {

    private static final int STEP = 1000;
    private static final String TAG = "failover";
    private static final Duration BEFORE = Duration.ofSeconds(2);
    private static final Duration AFTER = Duration.ofSeconds(3);

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void anAsynchronousStandbyThatLaggedRepeatsNoId() throws Exception {
        Outcome outcome;
        try (PostgresServer primary = PostgresServer.start(); PostgresServer standby = primary.standby(false)) {
            outcome = failOver(Pair.of(primary, standby, false));
        }
        assertThat(outcome.standbyMaxId).as("max_id the standby had when promoted, below IDs already served")
                .isLessThan(outcome.highestBeforeKill);
        assertThat(outcome.skips).as("skips after the failover").isPositive();
    }

    @Test
    @Timeout(180)
    void aSynchronousStandbyRepeatsNoId() throws Exception {
        Outcome outcome;
        try (PostgresServer primary = PostgresServer.start(); PostgresServer standby = primary.standby(true)) {
            outcome = failOver(Pair.of(primary, standby, true));
        }
        assertThat(outcome.standbyMaxId).as("max_id the standby had when promoted: every block the servers reserved")
                .isGreaterThanOrEqualTo(outcome.highestBeforeKill);
    }

    @Test
    @Timeout(180)
    void aMariaDbReplicaThatLaggedRepeatsNoId() throws Exception {
        Outcome outcome;
        try (MariadbServer primary = MariadbServer.primary(dir); MariadbServer replica = primary.replica(dir, 1)) {
            outcome = failOver(new Pair("mariadb replica, MASTER_DELAY=1",
                    TestDatabase.prepare(primary.url(), MariadbServer.USER, MariadbServer.PASSWORD),
                    "jdbc:mysql://127.0.0.1:" + primary.port() + ",127.0.0.1:" + replica.port() + "/"
                            + MariadbServer.DATABASE + "?failOverReadOnly=false&connectTimeout=2000&socketTimeout=5000",
                    MariadbServer.USER, MariadbServer.PASSWORD, () -> { }, primary::kill, replica::promote,
                    replica.url()));
        }
        assertThat(outcome.standbyMaxId).as("max_id the replica had when promoted, below IDs already served")
                .isLessThan(outcome.highestBeforeKill);
        assertThat(outcome.skips).as("skips after the failover").isPositive();
    }

    private static Outcome failOver(Pair pair) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong refused = new AtomicLong();
        ConcurrentLinkedQueue<long[]> taken = new ConcurrentLinkedQueue<>();
        List<DruidDataSource> pools = new ArrayList<>();
        List<StoreIdentityGuard> guards = new ArrayList<>();
        try {
            TestDatabase database = pair.database;
            database.insertTag(TAG, 0, STEP);
            List<Future<?>> workers = new ArrayList<>();
            for (int server = 0; server < 2; server++) {
                DruidDataSource pool = pool(pair.url, pair.user, pair.password);
                pools.add(pool);
                var sessions = LeafSqlSessions.create(pool);
                StoreIdentityGuard guard = new StoreIdentityGuard(sessions, StoreIdentityGuard.DEFAULT_SKIP_BLOCKS);
                guards.add(guard);
                SegmentIdGenerator generator = new SegmentIdGenerator(TAG,
                        new LeafAllocRepository(sessions, Sleeper.system(), guard),
                        new SegmentSettings(new StepPolicy(STEP, Duration.ofMinutes(15)), Duration.ofSeconds(3), SegmentLoadListener.NONE,
                                SegmentSettings.DEFAULT_WENT_BACK_SKIP_BLOCKS),
                        InstantSource.system(), threads);
                for (int t = 0; t < 2; t++) {
                    workers.add(threads.submit(() -> {
                        LongChunks ids = new LongChunks();
                        while (running.get()) {
                            try {
                                ids.add(generator.nextId());
                                if (ids.size() % 100 == 0) {
                                    Thread.sleep(1); // a client's pace, so that millions of IDs fit in memory
                                }
                            } catch (LeafException unavailable) {
                                refused.incrementAndGet(); // a 503 to a client: nothing served
                                Thread.sleep(20);
                            }
                        }
                        taken.add(ids.toArray());
                        return null;
                    }));
                }
            }
            Thread.sleep(BEFORE.toMillis());
            pair.holdBehind.run(); // from now on the copy falls behind, if it is to
            Thread.sleep(500);
            long highestBeforeKill = database.maxId(TAG);
            pair.killPrimary.run();
            Thread.sleep(200);
            long standbyMaxId = maxIdOn(pair.copyUrl, pair.user, pair.password);
            pair.promote.run();
            Thread.sleep(AFTER.toMillis());
            running.set(false);
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS);
            }

            long[] all = taken.stream().flatMapToLong(Arrays::stream).sorted().toArray();
            long total = all.length;
            long repeats = 0;
            for (int i = 1; i < all.length; i++) {
                if (all[i] == all[i - 1]) {
                    repeats++;
                }
            }
            long skips = guards.stream().mapToLong(StoreIdentityGuard::skipCount).sum();
            System.out.printf("[failover %s] %,d IDs, %d repeated, %d refused; standby max_id %,d at promotion,"
                    + " highest max_id before the kill %,d, skips %d%n", pair.name,
                    total, repeats, refused.get(), standbyMaxId, highestBeforeKill, skips);
            assertThat(repeats).as("IDs served twice").isZero();
            assertThat(total).as("IDs served").isGreaterThanOrEqualTo(100_000);
            assertThat(maxIdOn(pair.copyUrl, pair.user, pair.password)).as("max_id on the promoted standby, which served after the failover")
                    .isGreaterThan(standbyMaxId);
            return new Outcome(standbyMaxId, highestBeforeKill, skips);
        } finally {
            running.set(false);
            threads.shutdownNow();
            pools.forEach(DruidDataSource::close);
        }
    }

    private static long maxIdOn(String url, String user, String password) throws Exception {
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT max_id FROM leaf_alloc WHERE biz_tag = '" + TAG + "'")) {
            row.next();
            return row.getLong(1);
        }
    }

    private static DruidDataSource pool(String url, String user, String password) throws Exception {
        DruidDataSource pool = new DruidDataSource();
        pool.setUrl(url);
        pool.setUsername(user);
        pool.setPassword(password);
        pool.setInitialSize(0);
        pool.setMaxActive(4);
        pool.setMaxWait(2_000);
        pool.setValidationQuery("SELECT 1");
        pool.setTestWhileIdle(true);
        pool.setKeepAlive(true);
        pool.setBreakAfterAcquireFailure(false);
        pool.init();
        return pool;
    }

    private record Outcome(long standbyMaxId, long highestBeforeKill, long skips) {}

    /** What fails over to what, and how. */
    private record Pair(String name, TestDatabase database, String url, String user, String password,
            Step holdBehind, Step killPrimary, Step promote, String copyUrl) {

        static Pair of(PostgresServer primary, PostgresServer standby, boolean synchronous) {
            return new Pair(synchronous ? "postgresql synchronous standby" : "postgresql asynchronous standby",
                    TestDatabase.prepare(primary.url("leaf"), "postgres", ""),
                    "jdbc:postgresql://127.0.0.1:" + primary.port() + ",127.0.0.1:" + standby.port()
                            + "/leaf?targetServerType=primary",
                    "postgres", "", synchronous ? () -> { } : standby::cutReplication, primary::kill,
                    standby::promote, standby.url("leaf"));
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /** Millions of IDs without a box each. */
    private static final class LongChunks {
        private final List<long[]> full = new ArrayList<>();
        private long[] chunk = new long[1 << 16];
        private int size;

        int size() {
            return full.size() * chunk.length + size;
        }

        void add(long id) {
            if (size == chunk.length) {
                full.add(chunk);
                chunk = new long[chunk.length];
                size = 0;
            }
            chunk[size++] = id;
        }

        long[] toArray() {
            long[] all = new long[full.size() * chunk.length + size];
            int at = 0;
            for (long[] part : full) {
                System.arraycopy(part, 0, all, at, part.length);
                at += part.length;
            }
            System.arraycopy(chunk, 0, all, at, size);
            return all;
        }
    }
}
