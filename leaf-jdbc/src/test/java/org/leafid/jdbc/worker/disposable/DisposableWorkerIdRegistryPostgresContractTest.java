package org.leafid.jdbc.worker.disposable;

import org.leafid.testing.jdbc.TestDatabase;

/** The {@code disposable} mode's contract on uid-generator's table made by {@code sql/postgresql/worker_node.sql}. */
class DisposableWorkerIdRegistryPostgresContractTest extends DisposableWorkerIdRegistryContractTest {

    @Override
    TestDatabase database() {
        return TestDatabase.postgres().derived("disposable");
    }
}
