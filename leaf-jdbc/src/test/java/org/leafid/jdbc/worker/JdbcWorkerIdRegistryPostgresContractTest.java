package org.leafid.jdbc.worker;

import org.leafid.jdbc.testing.TestDatabase;

/** The {@code mysql} worker-id mode's contract on PostgreSQL: the mode keeps its name on either database. */
class JdbcWorkerIdRegistryPostgresContractTest extends JdbcWorkerIdRegistryContractTest {

    @Override
    TestDatabase database() {
        return TestDatabase.postgres();
    }
}
