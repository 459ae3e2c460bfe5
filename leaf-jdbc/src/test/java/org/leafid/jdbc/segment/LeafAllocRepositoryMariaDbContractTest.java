package org.leafid.jdbc.segment;

import com.alibaba.druid.pool.DruidDataSource;
import org.leafid.testing.jdbc.TestDatabase;

/** The {@code SegmentStore} contract on the MySQL-protocol test database (MariaDB or MySQL). */
class LeafAllocRepositoryMariaDbContractTest extends LeafAllocRepositoryContractTest {

    @Override
    protected DruidDataSource openPool() {
        return TestDatabase.get().newPool();
    }
}
