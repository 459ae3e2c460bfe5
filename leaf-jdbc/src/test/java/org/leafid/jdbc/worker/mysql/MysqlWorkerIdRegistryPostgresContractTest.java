package org.leafid.jdbc.worker.mysql;

import org.leafid.testing.jdbc.TestDatabase;

/** The {@code mysql} worker-id mode's contract on PostgreSQL: the mode keeps its name on either database. */
class MysqlWorkerIdRegistryPostgresContractTest extends MysqlWorkerIdRegistryContractTest {

    @Override
    TestDatabase database() {
        return TestDatabase.postgres();
    }
}
