package org.leafid.jdbc.segment;

import com.alibaba.druid.pool.DruidDataSource;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * The {@code SegmentStore} contract on PostgreSQL, {@code leaf_alloc} made by
 * {@code sql/postgresql/leaf_alloc.sql}; reservations go through the one-statement path there.
 */
class LeafAllocRepositoryPostgresContractTest extends LeafAllocRepositoryContractTest {

    @Override
    protected DruidDataSource openPool() {
        return TestDatabase.postgres().newPool();
    }
}
