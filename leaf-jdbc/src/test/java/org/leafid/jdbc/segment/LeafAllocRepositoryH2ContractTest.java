package org.leafid.jdbc.segment;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.pool.DruidDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.jdbc.EmbeddedDatabase;

/**
 * The {@code SegmentStore} contract on the embedded default: an H2 file database in MySQL mode
 * with the schema the server creates when no {@code leaf.jdbc.url} is set, one per test.
 */
class LeafAllocRepositoryH2ContractTest extends LeafAllocRepositoryContractTest {

    @TempDir
    Path dataDir;

    @Override
    protected DruidDataSource openPool() throws Exception {
        DruidDataSource pool = new DruidDataSource();
        pool.setUrl(EmbeddedDatabase.url(dataDir));
        pool.setUsername("sa");
        pool.setPassword("");
        pool.setValidationQuery("SELECT 1");
        try (Connection connection = pool.getConnection()) {
            EmbeddedDatabase.createSchema(connection);
        } catch (Exception e) {
            pool.close();
            throw e;
        }
        return pool;
    }

    @Test
    void theHighWaterTableIsCreatedWhenMissing() {
        execute("DROP TABLE leaf_high_water");
        String tag = newTag("no-table");
        insert(tag, 1, 100);

        assertThat(store().reserve(tag, 1).maxId()).isEqualTo(101);
        assertThat(marks().highest(tag)).isEqualTo(101);
    }
}
