package org.leafid.jdbc.shard;

import com.alibaba.druid.pool.DruidDataSource;

/** The {@code ShardStore} contract on PostgreSQL, {@code id_alloc} made by {@code sql/postgresql/id_alloc.sql}. */
class IdAllocRepositoryPostgresContractTest extends IdAllocRepositoryContractTest {

    @Override
    protected DruidDataSource openPool() throws Exception {
        return ShardDatabases.postgres();
    }
}
