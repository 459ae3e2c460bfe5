package org.leafid.jdbc.shard;

import com.alibaba.druid.pool.DruidDataSource;

/**
 * The {@code ShardStore} contract on the MySQL-protocol test database (MariaDB or MySQL), whose
 * {@code id_alloc} is made by {@code sql/id_alloc.sql}: the Redis-queue services' DDL exactly.
 */
class IdAllocRepositoryMariaDbContractTest extends IdAllocRepositoryContractTest {

    @Override
    protected DruidDataSource openPool() throws Exception {
        return ShardDatabases.mariaDb();
    }
}
