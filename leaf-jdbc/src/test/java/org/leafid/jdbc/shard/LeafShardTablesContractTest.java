package org.leafid.jdbc.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.druid.pool.DruidDataSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.jdbc.shard.ShardKeyFingerprints.Check;

/**
 * Leaf's own shard tables ({@code sql/leaf_shard.sql}) on one database, which a subclass opens:
 * the opaque key's fingerprint per app and the issued watermarks, whose upsert must mean the same
 * on MySQL/MariaDB and on H2 in MySQL mode.
 */
abstract class LeafShardTablesContractTest {

    private DruidDataSource pool;
    private ShardKeyFingerprints fingerprints;
    private JdbcIssuedWatermarks watermarks;

    /** A new pool on a database whose shard tables exist and are empty; closed after the test. */
    protected abstract DruidDataSource openPool() throws Exception;

    @BeforeEach
    void open() throws Exception {
        pool = openPool();
        fingerprints = new ShardKeyFingerprints(LeafSqlSessions.create(pool));
        watermarks = new JdbcIssuedWatermarks(LeafSqlSessions.create(pool));
    }

    @AfterEach
    void close() {
        pool.close();
    }

    @Test
    void firstCheckRecordsTheFingerprintAndLaterOnesCompare() {
        assertThat(fingerprints.recorded(5)).isEmpty();

        assertThat(fingerprints.check(5, "fp-a")).isEqualTo(Check.RECORDED);
        assertThat(fingerprints.check(5, "fp-a")).isEqualTo(Check.MATCHES);
        assertThat(fingerprints.check(5, "fp-b")).isEqualTo(Check.DIFFERS);

        // A differing key never replaces the recorded one.
        assertThat(fingerprints.recorded(5)).contains("fp-a");
    }

    @Test
    void fingerprintsAreRecordedPerApp() {
        fingerprints.check(5, "fp-a");

        assertThat(fingerprints.check(6, "fp-b")).isEqualTo(Check.RECORDED);
        assertThat(fingerprints.recorded(5)).contains("fp-a");
        assertThat(fingerprints.recorded(6)).contains("fp-b");
    }

    @Test
    void blankOrOverlongFingerprintIsRejected() {
        assertThatThrownBy(() -> fingerprints.check(5, " ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> fingerprints.check(5, "f".repeat(129))).isInstanceOf(IllegalArgumentException.class);
        assertThat(fingerprints.recorded(5)).isEmpty();
    }

    @Test
    void instancesStartingAtOnceRecordOneFingerprintAndTheOthersCompareWithIt() throws Exception {
        int threads = 8;
        List<Check> checks = runAtOnce(threads, t -> fingerprints.check(9, "fp-" + (t % 2)));

        String recorded = fingerprints.recorded(9).orElseThrow();
        assertThat(checks).filteredOn(c -> c == Check.RECORDED).hasSize(1);
        for (int t = 0; t < threads; t++) {
            if (recorded.equals("fp-" + (t % 2))) {
                assertThat(checks.get(t)).isIn(Check.RECORDED, Check.MATCHES);
            } else {
                assertThat(checks.get(t)).isEqualTo(Check.DIFFERS);
            }
        }
    }

    @Test
    void aModeOutlivesItsRowDeletedBySqlAndTheRowIsPutBack() throws Exception {
        fingerprints.check(5, "fp-a");
        sql("DELETE FROM leaf_shard_key WHERE app_id = 5");

        assertThat(fingerprints.recorded(5)).contains("fp-a");
        assertThat(fingerprints.check(5, ShardKeyFingerprints.PLAIN)).isEqualTo(Check.DIFFERS);
        assertThat(count("SELECT COUNT(*) FROM leaf_shard_key WHERE app_id = 5 AND fingerprint = 'fp-a'")).isOne();

        sql("DELETE FROM leaf_shard_key");
        assertThat(fingerprints.all()).containsEntry(5, "fp-a");
        assertThat(count("SELECT COUNT(*) FROM leaf_shard_key WHERE app_id = 5")).isOne();
    }

    @Test
    void aModeRecordedBeforeMarksWereKeptGetsItsMarkAtTheNextReadOfAll() throws Exception {
        sql("INSERT INTO leaf_shard_key(app_id, fingerprint) VALUES (7, 'plain')");

        assertThat(fingerprints.all()).containsEntry(7, "plain");
        sql("DELETE FROM leaf_shard_key WHERE app_id = 7");
        assertThat(fingerprints.check(7, "fp-opaque")).isEqualTo(Check.DIFFERS);
    }

    @Test
    void theMarkWinsOverARowEditedBySql() throws Exception {
        fingerprints.check(8, ShardKeyFingerprints.PLAIN);
        sql("UPDATE leaf_shard_key SET fingerprint = 'fp-b' WHERE app_id = 8");

        assertThat(fingerprints.check(8, "fp-b")).isEqualTo(Check.DIFFERS);
        assertThat(fingerprints.all()).containsEntry(8, ShardKeyFingerprints.PLAIN);
    }

    private void sql(String statement) throws Exception {
        try (var connection = pool.getConnection(); var sql = connection.createStatement()) {
            sql.executeUpdate(statement);
        }
    }

    private long count(String query) throws Exception {
        try (var connection = pool.getConnection(); var sql = connection.createStatement();
                var rows = sql.executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    void watermarkIsZeroUntilAdvancedAndNeverLowered() {
        assertThat(watermarks.highest(3, 7)).isZero();

        watermarks.advance(3, 7, 1000);
        watermarks.advance(3, 7, 400);
        assertThat(watermarks.highest(3, 7)).isEqualTo(1000);

        watermarks.advance(3, 7, 2000);
        assertThat(watermarks.highest(3, 7)).isEqualTo(2000);
        assertThat(watermarks.highest(3, 8)).isZero();
        assertThat(watermarks.highest(4, 7)).isZero();
    }

    @Test
    void negativeWatermarkIsRejected() {
        assertThatThrownBy(() -> watermarks.advance(3, 7, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(watermarks.highest(3, 7)).isZero();
    }

    @Test
    void concurrentAdvancesFromSeveralThreadsKeepTheHighestAndNeverGoBack() throws Exception {
        int threads = 6;
        int perThread = 150;
        // Each thread advances its own values in shuffled order, starting on a missing row, and checks
        // that what it reads never goes below what it has seen or written.
        List<Long> finals = runAtOnce(threads, t -> {
            List<Long> values = new ArrayList<>(LongStream.rangeClosed(1, perThread)
                    .map(i -> i * threads + t).boxed().toList());
            Collections.shuffle(values, new Random(t));
            long seen = 0;
            for (long value : values) {
                watermarks.advance(2, 9, value);
                long now = watermarks.highest(2, 9);
                assertThat(now).as("watermark went back").isGreaterThanOrEqualTo(Math.max(seen, value));
                seen = now;
            }
            return seen;
        });

        long expected = (long) perThread * threads + threads - 1;
        assertThat(watermarks.highest(2, 9)).isEqualTo(expected);
        assertThat(finals).allSatisfy(seen -> assertThat(seen).isLessThanOrEqualTo(expected));
    }

    private interface Task<T> {
        T run(int thread) throws Exception;
    }

    private static <T> List<T> runAtOnce(int threads, Task<T> task) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(executor.submit(() -> {
                    start.await();
                    return task.run(thread);
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(60, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            executor.shutdownNow();
        }
    }
}
