package org.leafid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.testing.jdbc.TestDatabase;
import org.postgresql.ds.PGSimpleDataSource;

/** Which SQL Leaf speaks: from the url of its own pool, or by asking an application's DataSource. */
class SqlDialectTest {

    @TempDir
    Path dir;

    @Test
    void theUrlAloneSaysWhichDatabase() {
        assertThat(SqlDialect.ofUrl("jdbc:mysql://h/db")).contains(SqlDialect.MYSQL);
        assertThat(SqlDialect.ofUrl("jdbc:mariadb://h/db")).contains(SqlDialect.MYSQL);
        assertThat(SqlDialect.ofUrl(EmbeddedDatabase.url(dir))).contains(SqlDialect.MYSQL);
        assertThat(SqlDialect.ofUrl(" JDBC:PostgreSQL://h:5432/db")).contains(SqlDialect.POSTGRESQL);
        assertThat(SqlDialect.ofUrl("jdbc:oracle:thin:@h:1521/x")).isEmpty();
        assertThat(SqlDialect.ofUrl(null)).isEmpty();
    }

    @Test
    void leafsOwnPoolIsReadFromItsUrlWithoutAConnection() {
        try (var pool = new com.alibaba.druid.pool.DruidDataSource()) {
            pool.setUrl("jdbc:postgresql://127.0.0.1:1/nothing-listens-here");
            assertThat(SqlDialect.of(pool)).isEqualTo(SqlDialect.POSTGRESQL);
            pool.setUrl("jdbc:sqlserver://h;databaseName=x;password=S3cret");
            assertThatThrownBy(() -> SqlDialect.of(pool)).hasMessageContaining("not a database Leaf supports")
                    .hasMessageNotContaining("S3cret");
        }
    }

    @Test
    void anApplicationsDataSourceIsAskedWhatItIs() {
        TestDatabase postgres = TestDatabase.postgres();
        PGSimpleDataSource pg = new PGSimpleDataSource();
        pg.setUrl(postgres.url());
        pg.setUser(postgres.user());
        pg.setPassword(postgres.password());
        assertThat(SqlDialect.of(pg)).isEqualTo(SqlDialect.POSTGRESQL);

        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL(EmbeddedDatabase.url(dir));
        h2.setUser("sa");
        assertThat(SqlDialect.of(h2)).isEqualTo(SqlDialect.MYSQL);
    }
}
