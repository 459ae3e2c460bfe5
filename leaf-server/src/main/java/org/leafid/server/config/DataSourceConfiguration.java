package org.leafid.server.config;

import com.alibaba.druid.pool.DruidDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.leafid.server.database.EmbeddedDatabase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The database of {@code leaf_alloc}: MySQL from {@code leaf.jdbc.*}, or, with no url, an H2
 * file database under {@code leaf.data-dir} that is created with the sample tag.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(LeafDatabaseNeeded.class)
class DataSourceConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DataSourceConfiguration.class);
    private static final Duration EMBEDDED_OPEN_WAIT = Duration.ofSeconds(30);

    @Bean(destroyMethod = "close")
    DruidDataSource leafDataSource(LeafProperties leaf, JdbcProperties jdbc) throws SQLException, IOException {
        DruidDataSource pool = new DruidDataSource();
        pool.setName("leaf");
        if (jdbc.embedded()) {
            Path dir = leaf.dataDir().toAbsolutePath().normalize();
            Files.createDirectories(dir);
            pool.setUrl(EmbeddedDatabase.url(dir));
            pool.setUsername("sa");
            pool.setPassword("");
            log.info("No leaf.jdbc.url: using the embedded H2 database in {}", dir);
        } else {
            pool.setUrl(jdbc.url());
            pool.setUsername(jdbc.username());
            pool.setPassword(jdbc.password());
        }
        pool.setInitialSize(0); // start even while the database is down; loads fail with 503 instead
        pool.setMinIdle(1);
        pool.setMaxActive(jdbc.poolSize());
        pool.setMaxWait(jdbc.connectTimeout().toMillis());
        pool.setConnectTimeout((int) jdbc.connectTimeout().toMillis());
        pool.setSocketTimeout((int) jdbc.queryTimeout().toMillis());
        pool.setValidationQuery("SELECT 1");
        pool.setTestWhileIdle(true);
        pool.setTestOnBorrow(false);
        pool.setKeepAlive(true);
        pool.setBreakAfterAcquireFailure(false);
        // While the database is down the pool's creator thread retries every half second and logs
        // each failure at ERROR with a stack trace (hundreds a minute). Its logger is off in
        // application.properties; the segment store's own line names the cause once per interval.
        pool.init();
        if (jdbc.embedded()) {
            createEmbeddedSchema(pool);
        }
        return pool;
    }

    private static void createEmbeddedSchema(DruidDataSource pool) throws SQLException, IOException {
        // A local file, yet its first opening can outlast leaf.jdbc.connect-timeout on a loaded machine.
        try (Connection connection = pool.getConnection(EMBEDDED_OPEN_WAIT.toMillis())) {
            EmbeddedDatabase.createSchema(connection);
        }
    }
}
