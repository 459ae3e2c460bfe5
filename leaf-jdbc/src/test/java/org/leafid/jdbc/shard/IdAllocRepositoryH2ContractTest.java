package org.leafid.jdbc.shard;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.druid.pool.DruidDataSource;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.shard.ShardStoreException;
import org.leafid.jdbc.session.LeafSqlSessions;

/**
 * The {@code ShardStore} contract on the embedded default: an H2 file database in MySQL mode with
 * the schema the server creates when no {@code leaf.jdbc.url} is set, one per test.
 */
class IdAllocRepositoryH2ContractTest extends IdAllocRepositoryContractTest {

    @TempDir
    Path dataDir;

    @Override
    protected DruidDataSource openPool() throws Exception {
        return ShardDatabases.h2(dataDir);
    }

    @Test
    void missingTableIsExplainedNamingTheScript(@TempDir Path emptyDir) {
        try (DruidDataSource empty = ShardDatabases.h2WithoutSchema(emptyDir)) {
            IdAllocRepository repository = new IdAllocRepository(LeafSqlSessions.create(empty));

            assertThatThrownBy(() -> repository.reserve(1, 0, 1))
                    .isInstanceOf(ShardStoreException.class)
                    .hasMessageContaining("app 1 shard 0")
                    .hasMessageContaining("create the table with sql/id_alloc.sql");
            assertThatThrownBy(repository::apps)
                    .isInstanceOf(ShardStoreException.class)
                    .hasMessageContaining("sql/id_alloc.sql");
            assertThatThrownBy(() -> repository.createApp(2, "two", 10, 0, null))
                    .isInstanceOf(ShardTableException.class)
                    .hasMessageContaining("sql/id_alloc.sql");
        }
    }
}
