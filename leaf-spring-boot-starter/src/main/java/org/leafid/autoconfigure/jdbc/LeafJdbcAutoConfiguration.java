package org.leafid.autoconfigure.jdbc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import com.alibaba.druid.pool.DruidDataSource;
import javax.sql.DataSource;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.LeafSwitchCondition;
import org.leafid.autoconfigure.LeafValues;
import org.leafid.autoconfigure.mode.FleetWitnessChoice;
import org.leafid.core.segment.StepPolicy;
import org.leafid.jdbc.EmbeddedDatabase;
import org.leafid.jdbc.PoolUrls;
import org.leafid.jdbc.reservation.FleetWitnessedTables;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.jdbc.stores.StoreState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;

/**
 * The database of {@code leaf_alloc} (and of {@code leaf_workerid_alloc} in the {@code mysql}
 * mode), in this order:
 * <ol>
 * <li>{@code leaf.jdbc.url} set: Leaf's own Druid pool on it;
 * <li>no url and the application has one {@link DataSource} bean: that one, so an application
 *     keeps {@code leaf_alloc} in its own database without repeating its settings;
 * <li>neither: an H2 file database under {@code leaf.data-dir}, created with the sample tag
 *     (the server's embedded default; the application needs {@code com.h2database:h2}).
 * </ol>
 * The result is a {@link LeafDataSource}, not a {@code DataSource} bean: Leaf's pool must not
 * take the place of the application's (Spring Boot makes its own only while there is none).
 * Everything Leaf does on the database goes through the one {@link SqlSessionFactory} made here.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass(name = LeafJdbcAutoConfiguration.MODULE_CLASS)
@Conditional(LeafDatabaseNeeded.class)
public class LeafJdbcAutoConfiguration {

    /** A class of leaf-jdbc, an optional dependency: without it nothing of the database is made. */
    public static final String MODULE_CLASS = "org.leafid.jdbc.SqlDialect";

    private static final Logger log = LoggerFactory.getLogger(LeafJdbcAutoConfiguration.class);
    private static final Duration EMBEDDED_OPEN_WAIT = Duration.ofSeconds(30);

    /** Lazy: made when a part that uses it is made, so an application that replaces those opens no database. */
    @Bean
    @Lazy
    @ConditionalOnMissingBean
    LeafDataSource leafDataSource(LeafProperties leaf, JdbcProperties jdbc, ObjectProvider<DataSource> applicationDataSource,
            ObjectProvider<SeveralStores> severalStores) throws SQLException, IOException {
        if (jdbc.severalStores()) {
            // The first store holds every table but leaf_alloc's blocks: formats, shard mode, worker ids.
            // A pool of its own, with leaf.jdbc's timeouts: the stores' pools wait at most store-timeout.
            severalStores.getObject(); // the fleet is checked before anything else uses the first store
            JdbcProperties.StoreProperties first = jdbc.stores().get(0);
            DruidDataSource pool = pool("leaf", first.url(), first.username(), first.password(), jdbc,
                    jdbc.connectTimeout(), jdbc.queryTimeout());
            return new LeafDataSource(pool, pool.getUrl(), false, true);
        }
        if (jdbc.embedded()) {
            DataSource own = applicationDataSource.getIfUnique();
            long candidates = applicationDataSource.stream().count();
            if (own == null && candidates > 1) {
                throw new LeafConfigurationException("leaf.jdbc.url", "is unset and the application has "
                        + candidates + " DataSource beans, none of them @Primary, so Leaf cannot tell which holds "
                        + "leaf_alloc.", "Set leaf.jdbc.url, or mark the DataSource Leaf should use @Primary.");
            }
            if (own != null) {
                log.info("No leaf.jdbc.url: Leaf uses the application's DataSource ({})", PoolUrls.of(own));
                return new LeafDataSource(own, PoolUrls.of(own), false, false);
            }
            if (!EmbeddedDatabase.available()) {
                throw new LeafConfigurationException("leaf.jdbc.url", "is unset, the application has no DataSource "
                        + "bean, and H2 (the embedded database) is not on the classpath.", "Set leaf.jdbc.url to "
                        + "the database of leaf_alloc, define a DataSource, or add com.h2database:h2.");
            }
        }
        DruidDataSource pool = pool(leaf, jdbc);
        return new LeafDataSource(pool, pool.getUrl(), jdbc.embedded(), true);
    }

    /** Leaf's one session factory on the database above (see {@link LeafSqlSessions}). */
    @Bean
    @Lazy
    @ConditionalOnMissingBean
    SqlSessionFactory leafSqlSessions(LeafDataSource leafDataSource) {
        try {
            // The SQL follows the database: the url of Leaf's own pool (checked by JdbcProperties), or
            // what the application's DataSource says it is.
            return LeafSqlSessions.create(leafDataSource.dataSource());
        } catch (IllegalArgumentException unsupported) {
            throw new LeafConfigurationException("leaf.jdbc.url", "is unset and " + unsupported.getMessage() + ".",
                    "Set leaf.jdbc.url to the database of leaf_alloc.");
        }
    }

    /**
     * The one check that the database answering is the one this fleet wrote to, shared by the
     * segment and shard stores (see {@link StoreIdentityGuard}).
     */
    @Bean
    @Lazy
    @ConditionalOnMissingBean
    StoreIdentityGuard storeIdentityGuard(SqlSessionFactory leafSqlSessions, JdbcProperties jdbc,
            Environment environment) {
        // Read through the Binder, not segment's record: the segment package depends on this one.
        long largestBlock = Binder.get(environment).bind("leaf.segment.max-step", Long.class)
                .orElse(StepPolicy.DEFAULT_MAX_STEP);
        LeafValues.requireBetween("leaf.segment.max-step", largestBlock, 1, Integer.MAX_VALUE); // as segment's record
        boolean fleetWide = FleetWitnessChoice.of(environment).fleetWide();
        // Shard mode unset is on only with the embedded database, which has no identity to check.
        boolean shardOn = Binder.get(environment).bind("leaf.shard.enable", Boolean.class).orElse(false);
        return new StoreIdentityGuard(leafSqlSessions, jdbc.wentBackSkipBlocks(), largestBlock,
                new FleetWitnessedTables(LeafSwitchCondition.isOn(environment, "leaf.segment.enable") && fleetWide,
                        shardOn && fleetWide));
    }

    /**
     * The databases of {@code leaf.jdbc.stores}, each with its own pool, checked against the fleet
     * they recorded before this server serves anything from them.
     */
    @Bean(destroyMethod = "close")
    @Lazy
    @ConditionalOnMissingBean
    @Conditional(SeveralStoresConfigured.class)
    SeveralStores severalStores(JdbcProperties jdbc, Environment environment) throws SQLException {
        long largestBlock = Binder.get(environment).bind("leaf.segment.max-step", Long.class)
                .orElse(StepPolicy.DEFAULT_MAX_STEP);
        if (jdbc.stripeWidth() < largestBlock) {
            throw new LeafConfigurationException("leaf.jdbc.stripe-width", "is " + jdbc.stripeWidth()
                    + ", below leaf.segment.max-step (" + largestBlock + "): a block must fit in one stripe.",
                    "Set leaf.jdbc.stripe-width to at least " + largestBlock + " on a new fleet (it is recorded in"
                            + " every store and cannot change later).");
        }
        List<DruidDataSource> pools = new ArrayList<>();
        try {
            for (int k = 0; k < jdbc.stores().size(); k++) {
                JdbcProperties.StoreProperties store = jdbc.stores().get(k);
                // A retired store keeps its place, without a pool: nothing connects to it any more.
                // A store's pool waits for a connection, and for each answer, at most store-timeout: a
                // dead or stalled store fails within it on the thread that asked (MultiStoreSegmentStore.Bound).
                pools.add(store.state() == StoreState.RETIRED ? null
                        : pool(PoolUrls.STORE_POOL_PREFIX + k, store.url(), store.username(), store.password(), jdbc,
                                shorter(jdbc.connectTimeout(), jdbc.storeTimeout()),
                                shorter(jdbc.queryTimeout(), jdbc.storeTimeout())));
            }
            return SeveralStores.open(pools, jdbc, largestBlock);
        } catch (RuntimeException | SQLException e) {
            pools.stream().filter(java.util.Objects::nonNull).forEach(DruidDataSource::close);
            throw e;
        }
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static DruidDataSource pool(LeafProperties leaf, JdbcProperties jdbc) throws SQLException, IOException {
        if (jdbc.embedded()) {
            Path dir = leaf.dataDir().toAbsolutePath().normalize();
            Files.createDirectories(dir);
            log.info("No leaf.jdbc.url: using the embedded H2 database in {}", dir);
            DruidDataSource pool = pool("leaf", EmbeddedDatabase.url(dir), "sa", "", jdbc, jdbc.connectTimeout(),
                    jdbc.queryTimeout());
            createEmbeddedSchema(pool);
            return pool;
        }
        return pool("leaf", jdbc.url(), jdbc.username(), jdbc.password(), jdbc, jdbc.connectTimeout(),
                jdbc.queryTimeout());
    }

    /**
     * Leaf's own pool on one database, sized and bounded by {@code leaf.jdbc.*}.
     *
     * @param name the pool's name (one of several stores: {@code leaf-store-k})
     * @param wait bound on waiting for a connection from the pool
     * @param read bound on waiting for one answer of the database (the network timeout Druid sets on
     *     each connection, in milliseconds whatever the driver)
     */
    static DruidDataSource pool(String name, String url, String username, String password, JdbcProperties jdbc,
            Duration wait, Duration read) throws SQLException {
        DruidDataSource pool = new DruidDataSource();
        pool.setName(name);
        pool.setUrl(url);
        pool.setUsername(username);
        pool.setPassword(password);
        pool.setInitialSize(0); // start even while the database is down; loads fail with 503 instead
        pool.setMinIdle(1);
        pool.setMaxActive(jdbc.poolSize());
        pool.setMaxWait(wait.toMillis());
        pool.setConnectTimeout((int) jdbc.connectTimeout().toMillis());
        pool.setSocketTimeout((int) read.toMillis());
        pool.setValidationQuery("SELECT 1");
        pool.setTestWhileIdle(true);
        pool.setTestOnBorrow(false);
        pool.setKeepAlive(true);
        pool.setBreakAfterAcquireFailure(false);
        // While the database is down the pool's creator thread retries every half second and logs
        // each failure at ERROR with a stack trace (hundreds a minute). Its logger is off in
        // application.properties; the segment store's own line names the cause once per interval.
        pool.init();
        return pool;
    }

    private static void createEmbeddedSchema(DruidDataSource pool) throws SQLException, IOException {
        // A local file, yet its first opening can outlast leaf.jdbc.connect-timeout on a loaded machine.
        try (Connection connection = pool.getConnection(EMBEDDED_OPEN_WAIT.toMillis())) {
            EmbeddedDatabase.createSchema(connection);
        }
    }
}
