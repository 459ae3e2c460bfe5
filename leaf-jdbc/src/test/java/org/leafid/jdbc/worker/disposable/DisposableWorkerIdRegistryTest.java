package org.leafid.jdbc.worker.disposable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import com.alibaba.druid.pool.DruidDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * {@code disposable} on MariaDB, in uid-generator's terms: a row per start, the row's {@code ID}
 * as worker id, never one twice, and the end of the layout's worker ids.
 */
class DisposableWorkerIdRegistryTest {

    private final TestDatabase database = TestDatabase.get().derived("disposable");
    private final List<DruidDataSource> pools = new ArrayList<>();

    @BeforeEach
    void emptyTable() {
        database.update("TRUNCATE TABLE WORKER_NODE");
    }

    @AfterEach
    void closePools() {
        pools.forEach(DruidDataSource::close);
    }

    @Test
    void threeStartsOfOneInstanceGetThreeIncreasingIdsAndRowsAsUidGeneratorWritesThem() throws SQLException {
        int first = registry(1023).register().workerId();
        int second = registry(1023).register().workerId();
        int third = registry(1023).register().workerId();

        assertThat(List.of(first, second, third)).containsExactly(1, 2, 3);
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT ID, HOST_NAME, PORT, TYPE, LAUNCH_DATE, MODIFIED, CREATED FROM WORKER_NODE ORDER BY ID")) {
            int count = 0;
            while (rows.next()) {
                count++;
                assertThat(rows.getLong("ID")).isEqualTo(count);
                assertThat(rows.getString("HOST_NAME")).isEqualTo("10.6.1.1");
                assertThat(rows.getString("PORT")).isEqualTo("8080");
                assertThat(rows.getInt("TYPE")).isEqualTo(DisposableWorkerIdRegistry.TYPE_ACTUAL);
                assertThat(rows.getDate("LAUNCH_DATE")).isNotNull();
                assertThat(rows.getTimestamp("MODIFIED")).isNotNull();
                assertThat(rows.getTimestamp("CREATED")).isNotNull();
            }
            assertThat(count).isEqualTo(3);
        }
    }

    @Test
    void instancesStartingTogetherNeverShareAnId() throws Exception {
        // As on a new database: every start records its identity at once (InnoDB answers some with a deadlock).
        database.update("DELETE FROM leaf_high_water WHERE name = 'leaf:store'");
        int starts = 16;
        ExecutorService threads = Executors.newFixedThreadPool(starts);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> ids = new ArrayList<>();
            for (int i = 0; i < starts; i++) {
                DisposableWorkerIdRegistry registry = registry(1023);
                ids.add(threads.submit(() -> {
                    go.await();
                    return registry.register().workerId();
                }));
            }
            go.countDown();
            Set<Integer> distinct = new HashSet<>();
            for (Future<Integer> id : ids) {
                distinct.add(id.get(60, TimeUnit.SECONDS));
            }
            assertThat(distinct).hasSize(starts).allSatisfy(id -> assertThat(id).isBetween(1, starts));
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aStartBeyondTheWorkerBitsIsRefusedNamingTheKeyAndTheLastIdStillServes() {
        // 3 worker bits: ids 1..7.
        database.update("ALTER TABLE WORKER_NODE AUTO_INCREMENT = 7");
        assertThat(registry(7).register().workerId()).isEqualTo(7);

        assertThatThrownBy(() -> registry(7).register())
                .isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("ID 8")
                .hasMessageContaining("leaf.snowflake.layout.worker-bits")
                .hasMessageContaining("never lower the table's AUTO_INCREMENT");
    }

    @Test
    void aMissingTableIsRefusedWithTheScriptToRun() {
        TestDatabase empty = TestDatabase.get().derived("disposable_missing");
        empty.update("DROP TABLE IF EXISTS WORKER_NODE");
        DruidDataSource pool = empty.newPool();
        pools.add(pool);
        DisposableWorkerIdRegistry registry = new DisposableWorkerIdRegistry(LeafSqlSessions.create(pool),
                new InstanceAddress("10.6.1.1", 8080), 1023);

        assertThatThrownBy(registry::register)
                .isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("WORKER_NODE")
                .hasMessageContaining("sql/worker_node.sql");
        empty.drop();
    }

    private DisposableWorkerIdRegistry registry(long maxWorkerId) {
        DruidDataSource pool = database.newPool();
        pools.add(pool);
        return new DisposableWorkerIdRegistry(LeafSqlSessions.create(pool), new InstanceAddress("10.6.1.1", 8080),
                maxWorkerId);
    }
}
