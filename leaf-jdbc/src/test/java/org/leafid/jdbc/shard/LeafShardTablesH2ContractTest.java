package org.leafid.jdbc.shard;

import com.alibaba.druid.pool.DruidDataSource;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Leaf's shard tables on the embedded default (H2 in MySQL mode), one database per test. */
class LeafShardTablesH2ContractTest extends LeafShardTablesContractTest {

    @TempDir
    Path dataDir;

    @Override
    protected DruidDataSource openPool() throws Exception {
        return ShardDatabases.h2(dataDir);
    }
}
