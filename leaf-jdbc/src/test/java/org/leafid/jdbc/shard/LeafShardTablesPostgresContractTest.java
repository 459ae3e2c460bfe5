package org.leafid.jdbc.shard;

import com.alibaba.druid.pool.DruidDataSource;

/** Leaf's shard tables on PostgreSQL. */
class LeafShardTablesPostgresContractTest extends LeafShardTablesContractTest {

    @Override
    protected DruidDataSource openPool() throws Exception {
        return ShardDatabases.postgres();
    }
}
