package org.leafid.server.fault;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.ibatis.jdbc.ScriptRunner;
import org.leafid.server.support.TcpProxy;
import org.leafid.server.support.TestDatabase;

/**
 * The MySQL-protocol database of the fault suite: the test database ({@link TestDatabase}), or
 * when its user may create one, a database of the suite's own beside it ({@code leaf_fault}), so
 * that other test runs cannot touch the {@code leaf_alloc} rows the suite snapshots.
 */
final class FaultDatabase {

    private static final String OWN_DATABASE = "leaf_fault";
    private static final Pattern URL = Pattern.compile("^(jdbc:\\w+://([^:/]+):(\\d+)/)([^?;]*)(.*)$");

    private final String url;
    private final String user;
    private final String password;
    private final boolean own;

    private FaultDatabase(String url, String user, String password, boolean own) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.own = own;
    }

    static FaultDatabase open() {
        TestDatabase shared = TestDatabase.get();
        Matcher m = URL.matcher(shared.url());
        if (!m.matches()) {
            throw new IllegalStateException("expected jdbc:<driver>://host:port/database, got " + shared.url());
        }
        FaultDatabase database;
        try (Connection connection = shared.connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE DATABASE IF NOT EXISTS " + OWN_DATABASE);
            database = new FaultDatabase(m.group(1) + OWN_DATABASE + m.group(5), shared.user(), shared.password(), true);
        } catch (SQLException e) {
            database = new FaultDatabase(shared.url(), shared.user(), shared.password(), false);
        }
        database.runScript("sql/leaf_alloc.sql");
        database.runScript("sql/leaf_workerid_alloc.sql");
        if (database.own) {
            database.update("DELETE FROM leaf_alloc WHERE biz_tag LIKE 'fault-%'"); // earlier runs' tags
        }
        return database;
    }

    String url() {
        return url;
    }

    /** The same database reached through a proxy that relays to its host and port. */
    String urlThrough(TcpProxy proxy) {
        Matcher m = URL.matcher(url);
        if (!m.matches()) {
            throw new IllegalStateException(url);
        }
        return url.replace("//" + m.group(2) + ":" + m.group(3) + "/", "//127.0.0.1:" + proxy.port() + "/");
    }

    TcpProxy newProxy() throws IOException {
        Matcher m = URL.matcher(url);
        if (!m.matches()) {
            throw new IllegalStateException(url);
        }
        return new TcpProxy(m.group(2), Integer.parseInt(m.group(3)));
    }

    /** Server arguments for this database at {@code jdbcUrl} (direct or through a proxy). */
    List<String> serverArguments(String jdbcUrl) {
        return List.of("--leaf.jdbc.url=" + jdbcUrl, "--leaf.jdbc.username=" + user);
    }

    /** The password goes through the environment, so that no log line carries it. */
    Map<String, String> serverEnvironment() {
        return Map.of("LEAF_JDBC_PASSWORD", password);
    }

    void insertTag(String tag, long maxId, int step) {
        update("INSERT INTO leaf_alloc(biz_tag, max_id, step, description) VALUES (?, ?, ?, 'fault suite')",
                tag, maxId, step);
    }

    long maxId(String tag) {
        try (Connection connection = connect();
                PreparedStatement select = connection.prepareStatement("SELECT max_id FROM leaf_alloc WHERE biz_tag = ?")) {
            select.setString(1, tag);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("no row for " + tag);
                }
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** "MariaDB 10.11.6" or the like. */
    String version() {
        try (Connection connection = connect()) {
            return connection.getMetaData().getDatabaseProductName() + " "
                    + connection.getMetaData().getDatabaseProductVersion();
        } catch (SQLException e) {
            return "unknown database (" + e.getMessage() + ")";
        }
    }

    /** Every {@code leaf_alloc} row, every column, as text, in tag order. */
    List<String> snapshot() {
        List<String> rows = new ArrayList<>();
        try (Connection connection = connect(); Statement statement = connection.createStatement();
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

    void update(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    private void runScript(String relative) {
        try (Connection connection = connect();
                Reader reader = Files.newBufferedReader(TestDatabase.repoFile(relative), StandardCharsets.UTF_8)) {
            ScriptRunner runner = new ScriptRunner(connection);
            runner.setLogWriter(null);
            runner.setStopOnError(true);
            runner.setAutoCommit(true);
            runner.runScript(reader);
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("could not run " + relative + " on " + url, e);
        }
    }
}
