package org.leafid.jdbc.shard;

import com.alibaba.druid.pool.DruidDataSource;

/** Leaf's shard tables on the MySQL-protocol test database (MariaDB or MySQL). */
class LeafShardTablesMariaDbContractTest extends LeafShardTablesContractTest {

    @Override
    protected DruidDataSource openPool() throws Exception {
        return ShardDatabases.mariaDb();
    }
}
