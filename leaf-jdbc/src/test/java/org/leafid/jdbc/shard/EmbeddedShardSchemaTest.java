package org.leafid.jdbc.shard;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.pool.DruidDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardBlock;
import org.leafid.jdbc.EmbeddedDatabase;
import org.leafid.jdbc.session.LeafSqlSessions;

/**
 * The embedded default's shard tables: the sample app 1 {@code leaf-shard-test} with 64 rows, and
 * a schema script that runs at every start without touching what is there.
 */
class EmbeddedShardSchemaTest {

    @TempDir
    Path dataDir;

    private DruidDataSource pool;
    private IdAllocRepository repository;

    @BeforeEach
    void open() throws Exception {
        pool = ShardDatabases.h2WithoutSchema(dataDir);
        createSchema();
        repository = new IdAllocRepository(LeafSqlSessions.create(pool));
    }

    @AfterEach
    void close() {
        pool.close();
    }

    @Test
    void sampleAppHasSixtyFourRowsAtZeroWithoutLimit() {
        assertThat(repository.apps()).containsExactly(
                new ShardApp(1, "leaf-shard-test", 1000, 0, IntStream.range(0, 64).boxed().toList()));
        assertThat(repository.rows(1)).allSatisfy(row -> assertThat(row.maxId()).isZero());
        assertThat(repository.reserve(1, 0, 1)).isEqualTo(new ShardBlock(1, 0, 1, 1000, 1000));
    }

    @Test
    void rerunningTheSchemaKeepsReservationsAndDoesNotPutBackADeletedRow() throws Exception {
        repository.reserve(1, 5, 2);
        new JdbcIssuedWatermarks(LeafSqlSessions.create(pool)).advance(1, 5, 1500);
        ShardDatabases.update(pool, "DELETE FROM id_alloc WHERE app_id = 1 AND shard_id = 9");

        createSchema();

        assertThat(ShardDatabases.maxId(pool, 1, 5)).isEqualTo(2000);
        // Put back at max_id 0, shard 9 would issue its indexes again.
        assertThat(ShardDatabases.number(pool, "SELECT COUNT(*) FROM id_alloc WHERE app_id = 1")).isEqualTo(63);
        assertThat(new JdbcIssuedWatermarks(LeafSqlSessions.create(pool)).highest(1, 5)).isEqualTo(1500);
    }

    private void createSchema() throws Exception {
        try (Connection connection = pool.getConnection()) {
            EmbeddedDatabase.createSchema(connection);
        }
    }
}
