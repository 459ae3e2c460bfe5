package org.leafid.server.segment;

import com.alibaba.druid.pool.DruidDataSource;
import org.leafid.server.support.TestDatabase;

/** The {@code SegmentStore} contract on the MySQL-protocol test database (MariaDB or MySQL). */
class MybatisSegmentStoreMariaDbContractTest extends MybatisSegmentStoreContractTest {

    @Override
    protected DruidDataSource openPool() {
        return TestDatabase.get().newPool();
    }
}
