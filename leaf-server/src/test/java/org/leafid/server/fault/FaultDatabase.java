package org.leafid.server.fault;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.leafid.testing.TcpProxy;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * The MySQL-protocol database of the fault suite: when the test user may create one, a database
 * of the suite's own beside the test database, so that other test runs cannot touch the
 * {@code leaf_alloc} rows the suite snapshots; else the test database itself. Its name is derived
 * from the test database's ({@code <test database>_fault}), so that runs pointed at different
 * test databases never share it either.
 */
final class FaultDatabase {

    private static final String OWN_DATABASE_SUFFIX = "fault";

    private final TestDatabase database;

    private FaultDatabase(TestDatabase database) {
        this.database = database;
    }

    static FaultDatabase open() {
        TestDatabase shared = TestDatabase.get();
        TestDatabase own;
        try {
            own = shared.derived(OWN_DATABASE_SUFFIX);
        } catch (IllegalStateException e) {
            System.out.println("[fault suite] sharing the test database " + shared.name() + ": " + e.getMessage());
            return new FaultDatabase(shared); // may not create databases: share the test database
        }
        own.update("DELETE FROM leaf_alloc WHERE biz_tag LIKE 'fault-%'"); // earlier runs' tags
        // Earlier runs' shard apps, with their recorded modes: an app left recorded opaque by the mixed-key
        // scenario would keep a keyless server of this run from being ready.
        own.forgetApps();
        return new FaultDatabase(own);
    }

    /** A database of another suite's own, e.g. {@code TestDatabase.get().derived("client")}. */
    static FaultDatabase on(TestDatabase database) {
        return new FaultDatabase(database);
    }

    /** A dump of the Leaf tables loaded into {@code <this database>_<suffix>} on the same server. */
    FaultDatabase copyAs(String suffix) {
        return new FaultDatabase(database.copyAs(suffix));
    }

    /** Drops this database: for a copy a scenario made. */
    void drop() {
        database.drop();
    }

    /** The name of the database in {@link #url()}. */
    String name() {
        return database.name();
    }

    String url() {
        return database.url();
    }

    /** A tag's {@code max_id} and its mark set back by {@code by} in one transaction. */
    void setBackWithMark(String tag, long by) throws java.sql.SQLException {
        database.setBackWithMark(tag, by);
    }

    /** The same database reached through a proxy that relays to its host and port. */
    String urlThrough(TcpProxy proxy) {
        return database.urlThrough(proxy);
    }

    TcpProxy newProxy() throws IOException {
        String[] target = database.hostAndPort();
        return new TcpProxy(target[0], Integer.parseInt(target[1]));
    }

    /** Server arguments for this database at {@code jdbcUrl} (direct or through a proxy). */
    List<String> serverArguments(String jdbcUrl) {
        return List.of("--leaf.jdbc.url=" + jdbcUrl, "--leaf.jdbc.username=" + database.user());
    }

    /** The password goes through the environment, so that no log line carries it. */
    Map<String, String> serverEnvironment() {
        return Map.of("LEAF_JDBC_PASSWORD", database.password());
    }

    void insertTag(String tag, long maxId, int step) {
        database.update("INSERT INTO leaf_alloc(biz_tag, max_id, step, description) VALUES (?, ?, ?, 'fault suite')",
                tag, maxId, step);
    }

    /**
     * A shard-mode app as the Redis-queue services create one: 64 {@code id_alloc} rows, shard 0..63,
     * {@code max_id} 0. Rows, mode, watermarks and high-water marks an earlier run left for the app
     * id are deleted first (the fault database is the suite's own).
     */
    void insertApp(int appId, String appName, int step, long maxLimitId) {
        database.forgetApps(appId);
        insertRows(appId, appName, step, maxLimitId);
    }

    /**
     * Deletes the apps' rows, recorded modes, watermarks and high-water marks (with no ids, every app's): what
     * a scenario leaves for the ones after it. An app recorded opaque would keep every later keyless server
     * from being ready, one recorded plain every keyed one.
     */
    void forgetApps(int... appIds) {
        database.forgetApps(appIds);
    }

    /** The app's 64 rows at {@code max_id} 0, as an operator re-creating a deleted app would insert them. */
    void insertRows(int appId, String appName, int step, long maxLimitId) {
        for (int shard = 0; shard < 64; shard++) {
            database.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, description, max_limit_id) "
                    + "VALUES (?, ?, 0, ?, ?, 'fault suite', ?)", appId, appName, shard, step, maxLimitId);
        }
    }

    /** The sum of an app's {@code max_id} over its shards: how many indexes its rows have handed out. */
    long reservedIndexes(int appId) {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT COALESCE(SUM(max_id), 0) FROM id_alloc WHERE app_id = "
                        + appId)) {
            result.next();
            return result.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    long maxId(String tag) {
        return database.maxId(tag);
    }

    /** The first column of the first row of a query that yields a number, e.g. a COUNT(*). */
    long number(String sql, Object... parameters) {
        return database.number(sql, parameters);
    }

    void update(String sql, Object... parameters) {
        database.update(sql, parameters);
    }

    /** "MariaDB 10.11.6" or the like. */
    String version() {
        try (Connection connection = database.connect()) {
            return connection.getMetaData().getDatabaseProductName() + " "
                    + connection.getMetaData().getDatabaseProductVersion();
        } catch (SQLException e) {
            return "unknown database (" + e.getMessage() + ")";
        }
    }

    /** Every {@code leaf_alloc} row, every column, as text, in tag order. */
    List<String> snapshot() {
        List<String> rows = new ArrayList<>();
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(
                        "SELECT biz_tag, max_id, step, description, update_time FROM leaf_alloc ORDER BY biz_tag")) {
            while (result.next()) {
                rows.add(result.getString(1) + " | " + result.getLong(2) + " | " + result.getInt(3) + " | "
                        + result.getString(4) + " | " + result.getTimestamp(5));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return rows;
    }
}
