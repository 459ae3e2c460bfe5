package org.leafid.jdbc.worker.disposable;

import java.util.ArrayList;
import java.util.List;
import com.alibaba.druid.pool.DruidDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.leafid.testing.WorkerIdRegistryContractTest;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * The worker-id registry contract for {@code disposable} on uid-generator's {@code WORKER_NODE}
 * in a database of its own beside the test database (the table is emptied before each test, which
 * also resets its AUTO_INCREMENT, so ids stay within the 10 worker bits however often tests run).
 */
class DisposableWorkerIdRegistryContractTest extends WorkerIdRegistryContractTest {

    static final long LEAF_MAX_WORKER_ID = 1023;

    private final TestDatabase database = database();
    private final List<DruidDataSource> pools = new ArrayList<>();

    /** uid-generator's table in a database of its own: beside the MySQL-protocol test database here. */
    TestDatabase database() {
        return TestDatabase.get().derived("disposable");
    }

    DisposableWorkerIdRegistryContractTest() {
        super(Restart.NEW_ID_EVERY_START);
    }

    @BeforeEach
    void emptyTable() {
        database.truncateRestartingIds("WORKER_NODE");
    }

    @AfterEach
    void closePools() {
        pools.forEach(DruidDataSource::close);
    }

    /** A new process: a pool of its own. */
    @Override
    protected WorkerIdRegistry registry(int instance) {
        DruidDataSource pool = database.newPool();
        pools.add(pool);
        return new DisposableWorkerIdRegistry(LeafSqlSessions.create(pool), new InstanceAddress("10.6.0.1",
                8080 + instance), LEAF_MAX_WORKER_ID);
    }
}
