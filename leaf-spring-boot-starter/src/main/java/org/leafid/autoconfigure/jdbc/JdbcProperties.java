package org.leafid.autoconfigure.jdbc;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.LeafValues;
import org.leafid.jdbc.JdbcUrls;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.stores.StoreState;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.jdbc.*}: the database holding {@code leaf_alloc}, MySQL's kind (MySQL, MariaDB, TiDB)
 * or PostgreSQL, told apart by the url alone. An empty url means the embedded H2 database under
 * {@code leaf.data-dir}.
 *
 * @param url JDBC url of the database: {@code jdbc:mysql:…}, {@code jdbc:mariadb:…} or {@code jdbc:postgresql:…}
 *     (the SQL Leaf speaks follows it); empty means the embedded H2 database
 * @param username database user
 * @param password database password
 * @param poolSize connections kept by the pool
 * @param connectTimeout bound on opening a connection and on waiting for one from the pool
 * @param queryTimeout bound on one statement (socket read timeout)
 * @param wentBackSkipBlocks steps of a row left unused when the database is found to have gone back:
 *     every {@code leaf_alloc} and {@code id_alloc} row after a failover or restore to a server with
 *     another identity, one row when a server finds it below blocks it reserved; 0 for none (only
 *     with synchronous replication, see docs/databases.md)
 * @param stores several independent databases instead of {@code url} (at least 2, MySQL's kind or
 *     PostgreSQL, mixed as needed): each gives segment blocks only from numbers of its own, and blocks
 *     keep coming while any one answers (see docs/databases.md, "Several stores"). The first is
 *     also the database of every other table (formats' definitions, shard mode, worker ids)
 * @param stripeWidth with several stores, how many consecutive numbers each store owns in turn: at
 *     least {@code leaf.segment.max-step}, and the same on every server of the fleet (each store
 *     records it)
 * @param storeTimeout with several stores, how long one may take to give a block before the next
 *     is asked (below {@code leaf.segment.load-wait}, so that a waiting request is answered from the
 *     next store); a store that fails or stalls is skipped and asked again in the background. Each
 *     store's pool waits at most this long for a connection and for each answer of its database
 */
@ConfigurationProperties("leaf.jdbc")
public record JdbcProperties(
        @DefaultValue("") String url,
        @DefaultValue("") String username,
        @DefaultValue("") String password,
        @DefaultValue("8") int poolSize,
        @DefaultValue("2s") Duration connectTimeout,
        @DefaultValue("5s") Duration queryTimeout,
        @DefaultValue("1000") long wentBackSkipBlocks,
        List<StoreProperties> stores,
        @DefaultValue("1000000") long stripeWidth,
        @DefaultValue("500ms") Duration storeTimeout) {

    /**
     * One of several stores, {@code leaf.jdbc.stores[k]}.
     *
     * @param url JDBC url of the store: {@code jdbc:mysql:…}, {@code jdbc:mariadb:…} or {@code jdbc:postgresql:…}
     * @param username database user
     * @param password database password
     * @param state {@code member}; {@code joining} to add the store at the next renumbering
     *     ({@code POST /api/admin/stores/renumber}); {@code retired} once a renumbering retired it (its
     *     place stays, so the others keep theirs)
     */
    public record StoreProperties(String url, @DefaultValue("") String username, @DefaultValue("") String password,
            @DefaultValue("member") StoreState state) {

        @Override
        public String toString() {
            return "StoreProperties[url=" + JdbcUrls.withoutPassword(url) + ", username=" + username + "]";
        }
    }

    public JdbcProperties {
        stores = stores == null ? List.of() : List.copyOf(stores);
        if (!stores.isEmpty()) {
            checkStores(url, stores);
        }
        LeafValues.requireBetween("leaf.jdbc.stripe-width", stripeWidth, 1, Long.MAX_VALUE / 4);
        if (storeTimeout.isNegative() || storeTimeout.isZero()) {
            throw new LeafConfigurationException("leaf.jdbc.store-timeout", "is " + storeTimeout + ".",
                    "Set a positive duration, e.g. 1s.");
        }
        LeafValues.requireBetween("leaf.jdbc.pool-size", poolSize, 1, 256);
        LeafValues.requireBetween("leaf.jdbc.went-back-skip-blocks", wentBackSkipBlocks, 0, 1_000_000_000);
        if (url != null && !url.isBlank() && SqlDialect.ofUrl(url).isEmpty()) {
            throw new LeafConfigurationException("leaf.jdbc.url", "is " + JdbcUrls.withoutPassword(url.trim())
                    + "…, not a database Leaf supports.", "Leaf supports " + SqlDialect.SUPPORTED + ".");
        }
        if (url != null && url.strip().toLowerCase(Locale.ROOT).startsWith(MARIADB_SCHEME) && !driverAccepts(url.strip())) {
            throw new LeafConfigurationException("leaf.jdbc.url", "is " + JdbcUrls.withoutPassword(url.trim())
                    + ", but no JDBC driver for " + MARIADB_SCHEME + " is on the class path (the server ships MySQL "
                    + "Connector/J, which speaks to MariaDB too).", "Write the url as jdbc:mysql://… with the same "
                    + "host, port and database, or add org.mariadb.jdbc:mariadb-java-client to lib/.");
        }
        if (JdbcUrls.readOnlyAfterFailover(url)) {
            throw new LeafConfigurationException("leaf.jdbc.url", "is " + JdbcUrls.withoutPassword(url.trim())
                    + ", a list of hosts, and Connector/J makes every connection after a failover read-only: no"
                    + " block could be reserved until the first host is back.", "Add failOverReadOnly=false to the"
                    + " url, e.g. jdbc:mysql://db1:3306,db2:3306,db3:3306/leaf?failOverReadOnly=false.");
        }
    }

    private static final String MARIADB_SCHEME = "jdbc:mariadb:";

    private static void checkStores(String url, List<StoreProperties> stores) {
        if (url != null && !url.isBlank()) {
            throw new LeafConfigurationException("leaf.jdbc.url", "and leaf.jdbc.stores[0].url are both set: one"
                    + " database, or several.", "Keep leaf.jdbc.url for one database, or list every database under"
                    + " leaf.jdbc.stores[k].url and remove leaf.jdbc.url.");
        }
        if (stores.size() < 2) {
            throw new LeafConfigurationException("leaf.jdbc.stores", "lists one store.", "Several stores are at"
                    + " least two; for one database set leaf.jdbc.url instead.");
        }
        for (int k = 0; k < stores.size(); k++) {
            String storeUrl = stores.get(k).url();
            String key = "leaf.jdbc.stores[" + k + "].url";
            if (stores.get(k).state() == StoreState.RETIRED) {
                if (k == 0) {
                    throw new LeafConfigurationException("leaf.jdbc.stores[0].state", "is retired, but the first"
                            + " store holds Leaf's other tables (formats, shard mode, worker ids).", "Keep store 0 a"
                            + " member; retire another one.");
                }
                continue;
            }
            if (storeUrl == null || storeUrl.isBlank()) {
                throw new LeafConfigurationException(key, "is empty.", "Set the JDBC url of store " + k
                        + " (the embedded database cannot be one of several stores).");
            }
            if (SqlDialect.ofUrl(storeUrl).isEmpty()) {
                throw new LeafConfigurationException(key, "is " + JdbcUrls.withoutPassword(storeUrl.trim())
                        + "…, not a database Leaf supports.", "Leaf supports " + SqlDialect.SUPPORTED + ".");
            }
        }
    }

    /** Whether blocks come from several independent databases ({@link #stores}). */
    public boolean severalStores() {
        return !stores.isEmpty();
    }

    /** Whether a JDBC driver on the class path takes {@code url}: none, and the pool's first connection fails with a long trace. */
    private static boolean driverAccepts(String url) {
        try {
            DriverManager.getDriver(url);
            return true;
        } catch (SQLException e) {
            return false; // "No suitable driver": the answer, not a failure
        }
    }

    public boolean embedded() {
        return (url == null || url.isBlank()) && stores.isEmpty();
    }

    @Override
    public String toString() {
        // never print the password
        return "JdbcProperties[url=" + JdbcUrls.withoutPassword(url) + ", username=" + username
                + ", poolSize=" + poolSize + ", stores=" + stores + "]";
    }
}
