package org.leafid.testing.jdbc;

import com.alibaba.druid.pool.DruidDataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.leafid.testing.TcpProxy;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.TableScripts;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mysql.MySQLContainer;

/**
 * The real MySQL-protocol database the integration tests use, found as CONTRIBUTING.md says:
 * {@code LEAF_TEST_JDBC_URL} (with {@code _USER}, {@code _PASSWORD}); else a Testcontainers MySQL
 * when Docker runs; else a MySQL/MariaDB on 127.0.0.1:3306 as root without password; else the
 * test fails when {@code CI} is set and is skipped with a message otherwise. The database is
 * created when missing, so a new machine needs only a server; suites that need one of their own
 * take a {@link #derived derived} one beside it, never a fixed name.
 */
public final class TestDatabase {

    private static final String LOCAL_SERVER = "jdbc:mysql://127.0.0.1:3306/";
    private static final String LOCAL_DATABASE = "leaf_test";
    /** Surefire's fork number, in the modules whose tests run in more than one JVM. */
    private static final String FORK_PROPERTY = "leaftest.fork";
    /** {@code jdbc:<driver>://host:port/} + database + {@code ?parameters}. */
    private static final Pattern URL = Pattern.compile("^(jdbc:\\w+://[^/]+/)([^?;]*)(.*)$");
    /** A database name that needs no quoting rules beyond backticks, nor escaping. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_$]{1,64}");
    /** MySQL's and MariaDB's ER_BAD_DB_ERROR: "Unknown database". */
    private static final int UNKNOWN_DATABASE = 1049;
    /** ER_DBACCESS_DENIED_ERROR, which a user without rights on a database gets whether it exists or not. */
    private static final int ACCESS_DENIED = 1044;

    private static final String LOCAL_POSTGRES = "jdbc:postgresql://127.0.0.1:5432/";
    /** PostgreSQL's invalid_catalog_name: the database does not exist. */
    private static final String PG_UNKNOWN_DATABASE = "3D000";
    /** PostgreSQL's duplicate_database: created by someone else between our look and our CREATE. */
    private static final String PG_DUPLICATE_DATABASE = "42P04";

    private final String url;
    private final String user;
    private final String password;
    private final SqlDialect dialect;

    private TestDatabase(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.dialect = SqlDialect.ofUrl(url).orElseThrow(() -> new IllegalStateException(
                "not a database the tests support: " + url));
    }

    /** Found once per test JVM, on first use (the JVM's lazy class initialisation). */
    private static final class Shared {
        static final TestDatabase INSTANCE = ofThisJvm(locate());
    }

    /** The PostgreSQL database, found once per test JVM on first use. */
    private static final class SharedPostgres {
        static final TestDatabase INSTANCE = ofThisJvm(locatePostgres());
    }

    /**
     * Where a module runs its test classes in several JVMs at once, each JVM gets a database of its
     * own, {@code <database>_fork<n>} ({@code leaftest.fork}, Surefire's fork number, set in the
     * module's pom): tests that empty a table or count rows must not meet another JVM's rows.
     */
    private static TestDatabase ofThisJvm(TestDatabase configured) {
        String fork = System.getProperty(FORK_PROPERTY, "");
        TestDatabase database = fork.isBlank() ? configured : configured.sibling("fork" + fork);
        database.createIfMissing();
        database.createTables();
        return database;
    }

    /**
     * The PostgreSQL database for this test run, with the tables of {@code sql/postgresql/}:
     * {@code LEAF_TEST_PG_URL} (with {@code _USER}, {@code _PASSWORD}), else {@code leaf_test} on the
     * PostgreSQL at 127.0.0.1:5432 as {@code postgres} (trust auth, as {@code .ci/run} sets it up);
     * else the test fails when {@code CI} is set and is skipped with a message otherwise.
     */
    public static TestDatabase postgres() {
        return SharedPostgres.INSTANCE;
    }

    /** The SQL this database speaks. */
    public SqlDialect dialect() {
        return dialect;
    }

    /**
     * The database at {@code url}, created when missing, with the tables of {@code sql/}.
     *
     * @throws IllegalStateException when it is missing and {@code user} may not create it
     */
    public static TestDatabase prepare(String url, String user, String password) {
        TestDatabase database = new TestDatabase(url, user, password);
        database.createIfMissing();
        database.createTables();
        return database;
    }

    /** The database for this test run, with the tables of {@code sql/} created. */
    public static TestDatabase get() {
        return Shared.INSTANCE;
    }

    public String url() {
        return url;
    }

    /** The name of the database in {@link #url()}. */
    public String name() {
        return urlPart(2);
    }

    /**
     * {@code <this database>_<suffix>} on the same server, prepared as this one is: for a suite
     * that must not share rows with other test runs, yet follows wherever the tests are pointed.
     *
     * @throws IllegalStateException when it is missing and this user may not create it
     */
    public TestDatabase derived(String suffix) {
        TestDatabase database = sibling(suffix);
        database.createIfMissing();
        database.createTables();
        return database;
    }

    /** {@code <this database>_<suffix>} on the same server, not created yet. */
    private TestDatabase sibling(String suffix) {
        return new TestDatabase(urlPart(1) + name() + "_" + suffix + urlPart(3), user, password);
    }

    /**
     * A copy of this database's Leaf tables ({@code leaf_alloc}, {@code id_alloc},
     * {@code leaf_high_water}) as {@code <this database>_<suffix>} on the same server, made anew: what
     * a dump loaded under another name is (a staging restore, a clone).
     */
    public TestDatabase copyAs(String suffix) {
        TestDatabase copy = sibling(suffix);
        copy.drop();
        copy.createIfMissing();
        copy.createTables();
        copyTo(copy);
        return copy;
    }

    /**
     * Replaces the rows of {@code leaf_alloc}, {@code id_alloc} and {@code leaf_high_water} in
     * {@code other} (on any server, its tables created) with this database's: a clone of its reservations.
     */
    public void copyTo(TestDatabase other) {
        try (Connection from = connect(); Connection to = other.connect()) {
            for (String table : List.of("leaf_alloc", "id_alloc", "leaf_high_water")) {
                copyRows(table, from, to);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not copy " + name() + " to " + other.url(), e);
        }
    }

    private static void copyRows(String table, Connection from, Connection to) throws SQLException {
        try (Statement clear = to.createStatement()) {
            clear.execute("DELETE FROM " + table); // the scripts' sample rows
        }
        try (Statement select = from.createStatement(); ResultSet rows = select.executeQuery("SELECT * FROM " + table)) {
            int columns = rows.getMetaData().getColumnCount();
            String insert = "INSERT INTO " + table + " VALUES ("
                    + String.join(", ", Collections.nCopies(columns, "?")) + ")";
            try (PreparedStatement into = to.prepareStatement(insert)) {
                while (rows.next()) {
                    for (int column = 1; column <= columns; column++) {
                        into.setObject(column, rows.getObject(column));
                    }
                    into.executeUpdate();
                }
            }
        }
    }

    /** Drops this database: for one a test created. */
    public void drop() {
        try {
            execute(dialect == SqlDialect.POSTGRESQL ? "DROP DATABASE IF EXISTS \"" + name() + "\" WITH (FORCE)"
                    : "DROP DATABASE IF EXISTS `" + name() + "`");
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop " + name(), e);
        }
    }

    /**
     * Runs the scripts of {@code sql/} (or {@code sql/postgresql/}) as leaf-jdbc's jar carries them
     * ({@link TableScripts}): those that keep an existing table and its rows every time, and
     * {@code worker_node.sql} when {@code WORKER_NODE} is missing: that script is uid-generator's DDL
     * exactly, without {@code IF NOT EXISTS}. (PostgreSQL's version of it is idempotent.)
     */
    public void createTables() {
        for (String table : List.of("leaf_alloc", "id_alloc", "leaf_workerid_alloc", "leaf_shard", "leaf_high_water")) {
            runScript(table + ".sql");
        }
        if (dialect == SqlDialect.POSTGRESQL || !hasTable("WORKER_NODE")) {
            runScript("worker_node.sql");
        }
    }

    private boolean hasTable(String table) {
        try (Connection connection = connect();
                ResultSet tables = connection.getMetaData().getTables(name(), null, table, new String[] {"TABLE"})) {
            return tables.next();
        } catch (SQLException e) {
            throw new IllegalStateException("could not list the tables of " + url, e);
        }
    }

    /**
     * Empties {@code table} and starts its generated ids from 1 again (MySQL's TRUNCATE does that by
     * itself; PostgreSQL's identity sequence needs {@code RESTART IDENTITY}).
     */
    public void truncateRestartingIds(String table) {
        update(dialect == SqlDialect.POSTGRESQL ? "TRUNCATE TABLE " + table + " RESTART IDENTITY"
                : "TRUNCATE TABLE " + table);
    }

    /** Sets {@code leaf_workerid_alloc}'s next generated id to one past its highest row, as deletions leave gaps. */
    public void resetWorkerRowIds() {
        update(dialect == SqlDialect.POSTGRESQL
                ? "SELECT setval(pg_get_serial_sequence('leaf_workerid_alloc', 'id'), "
                        + "COALESCE(MAX(id), 0) + 1, false) FROM leaf_workerid_alloc"
                : "ALTER TABLE leaf_workerid_alloc AUTO_INCREMENT = 1");
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** The same database reached through {@code proxy} (which must relay to {@link #hostAndPort()}). */
    public String urlThrough(TcpProxy proxy) {
        String[] target = hostAndPort();
        return url.replace("//" + target[0] + ":" + target[1] + "/", "//127.0.0.1:" + proxy.port() + "/");
    }

    /** Host and port of a {@code jdbc:mysql://host:port/db} or {@code jdbc:mariadb://…} url. */
    public String[] hostAndPort() {
        Matcher m = Pattern.compile("^jdbc:\\w+://([^:/]+):(\\d+)/").matcher(url);
        if (!m.find()) {
            throw new IllegalStateException("expected jdbc:<driver>://host:port/database, got " + url);
        }
        return new String[] {m.group(1), m.group(2)};
    }

    /** Properties that point a server at this database. */
    public Map<String, Object> serverProperties() {
        return Map.of("leaf.jdbc.url", url, "leaf.jdbc.username", user, "leaf.jdbc.password", password);
    }

    /** A new pool of its own, as another server instance would have. */
    public DruidDataSource newPool() {
        DruidDataSource pool = new DruidDataSource();
        pool.setUrl(url);
        pool.setUsername(user);
        pool.setPassword(password);
        pool.setMaxActive(8);
        pool.setMaxWait(5_000);
        pool.setValidationQuery("SELECT 1");
        return pool;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /** Inserts a tag with a name no other test uses and returns the name. */
    public String newTag(String prefix, long maxId, int step) {
        String tag = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        insertTag(tag, maxId, step);
        return tag;
    }

    public void insertTag(String tag, long maxId, int step) {
        update("INSERT INTO leaf_alloc(biz_tag, max_id, step, description) VALUES (?, ?, ?, 'test')", tag, maxId, step);
    }

    /**
     * Sets a tag's {@code max_id} and its {@code leaf_high_water} mark back by {@code by} (not below 0)
     * in one transaction: an operator "repairing" both, or what a restore does to the two at once.
     */
    public void setBackWithMark(String tag, long by) throws SQLException {
        try (Connection connection = connect()) {
            connection.setAutoCommit(false);
            try (PreparedStatement row = connection.prepareStatement(
                    "UPDATE leaf_alloc SET max_id = GREATEST(max_id - ?, 0) WHERE biz_tag = ?");
                    PreparedStatement mark = connection.prepareStatement(
                            "UPDATE leaf_high_water SET high = GREATEST(high - ?, 0) WHERE name = ?")) {
                row.setLong(1, by);
                row.setString(2, tag);
                row.executeUpdate();
                mark.setLong(1, by);
                mark.setString(2, "leaf_alloc:" + tag);
                mark.executeUpdate();
            }
            connection.commit();
        }
    }

    public void deleteTag(String tag) {
        update("DELETE FROM leaf_alloc WHERE biz_tag = ?", tag);
    }

    /**
     * Deletes what earlier tests left of shard-mode apps: their {@code id_alloc} rows, recorded modes,
     * watermarks and high-water marks; of every app when no id is given. A test that creates an app id
     * again starts from nothing, as on a new database (the marks would otherwise move it past them).
     */
    public void forgetApps(int... appIds) {
        if (appIds.length == 0) {
            for (String table : List.of("id_alloc", "leaf_shard_key", "leaf_shard_watermark")) {
                update("DELETE FROM " + table);
            }
            update("DELETE FROM leaf_high_water WHERE name LIKE 'id_alloc:%'");
            return;
        }
        for (int appId : appIds) {
            for (String table : List.of("id_alloc", "leaf_shard_key", "leaf_shard_watermark")) {
                update("DELETE FROM " + table + " WHERE app_id = ?", appId);
            }
            update("DELETE FROM leaf_high_water WHERE name LIKE ?", "id_alloc:" + appId + ":%");
        }
    }

    /** The first column of the first row of a query that yields a number, e.g. a COUNT(*). */
    public long number(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement select = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                select.setObject(i + 1, parameters[i]);
            }
            try (var rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("no row: " + sql);
                }
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not run " + sql + " on " + url, e);
        }
    }

    public long maxId(String tag) {
        try (Connection connection = connect();
                PreparedStatement select = connection.prepareStatement("SELECT max_id FROM leaf_alloc WHERE biz_tag = ?")) {
            select.setString(1, tag);
            try (var rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("no row for " + tag);
                }
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public void update(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.execute();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** A file of the repository, found from the module directory Surefire runs in. */
    public static Path repoFile(String relative) {
        Path here = Path.of("").toAbsolutePath();
        for (Path dir = here; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(relative);
            if (Files.exists(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(relative + " not found above " + here);
    }

    private void runScript(String file) {
        try (Connection connection = connect()) {
            TableScripts.run(connection, dialect, file);
        } catch (SQLException e) {
            throw new IllegalStateException("could not run " + file + " on " + url, e);
        }
    }

    private static TestDatabase locatePostgres() {
        String url = System.getenv("LEAF_TEST_PG_URL");
        if (url != null && !url.isBlank()) {
            return new TestDatabase(url, envOr("LEAF_TEST_PG_USER", "postgres"), envOr("LEAF_TEST_PG_PASSWORD", ""));
        }
        try {
            DriverManager.getConnection(LOCAL_POSTGRES + "postgres?connectTimeout=2", "postgres", "").close();
        } catch (SQLException e) {
            String how = "No PostgreSQL for the PostgreSQL tests: set LEAF_TEST_PG_URL (and LEAF_TEST_PG_USER, "
                    + "LEAF_TEST_PG_PASSWORD), or run PostgreSQL on 127.0.0.1:5432 with user postgres and trust "
                    + "authentication, as .ci/run does (" + e.getMessage() + ")";
            if (System.getenv("CI") != null) {
                throw new IllegalStateException(how, e);
            }
            System.out.println("[skipped] " + how);
            Assumptions.abort(how);
            throw new AssertionError("unreachable");
        }
        return new TestDatabase(LOCAL_POSTGRES + LOCAL_DATABASE, "postgres", "");
    }

    private static TestDatabase locate() {
        String url = System.getenv("LEAF_TEST_JDBC_URL");
        if (url != null && !url.isBlank()) {
            return new TestDatabase(url, envOr("LEAF_TEST_JDBC_USER", "root"), envOr("LEAF_TEST_JDBC_PASSWORD", ""));
        }
        if (dockerAvailable()) {
            MySQLContainer mysql = new MySQLContainer("mysql:8.4");
            mysql.start();
            return new TestDatabase(mysql.getJdbcUrl(), mysql.getUsername(), mysql.getPassword());
        }
        try {
            DriverManager.getConnection(LOCAL_SERVER + "?connectTimeout=2000", "root", "").close();
        } catch (SQLException e) {
            String how = "No MySQL-protocol database for the integration tests: set LEAF_TEST_JDBC_URL "
                    + "(and LEAF_TEST_JDBC_USER, LEAF_TEST_JDBC_PASSWORD), start Docker, or run MySQL/MariaDB on "
                    + "127.0.0.1:3306 with root and no password (" + e.getMessage() + ")";
            if (System.getenv("CI") != null) {
                throw new IllegalStateException(how, e);
            }
            // Surefire keeps an abort's reason in its reports only; the build output says why here.
            System.out.println("[skipped] " + how);
            Assumptions.abort(how);
            throw new AssertionError("unreachable");
        }
        return new TestDatabase(LOCAL_SERVER + LOCAL_DATABASE, "root", "");
    }

    /**
     * Connects to the database; when the server says it does not exist (or that this user may not
     * use it, which it says for a missing one too), connects to the server alone and creates it.
     * A user who may only use an existing database needs no CREATE right.
     */
    private void createIfMissing() {
        String name = name();
        if (!NAME.matcher(name).matches()) {
            throw new IllegalStateException("expected a database name of letters, digits, _ and $ in " + url
                    + ", got '" + name + "'");
        }
        SQLException unusable;
        try {
            connect().close();
            return;
        } catch (SQLException e) {
            if (e.getErrorCode() != UNKNOWN_DATABASE && e.getErrorCode() != ACCESS_DENIED
                    && !PG_UNKNOWN_DATABASE.equals(e.getSQLState())) {
                throw new IllegalStateException("could not connect to the test database " + url + " as '" + user
                        + "': " + e.getMessage(), e);
            }
            unusable = e;
        }
        try {
            execute(dialect == SqlDialect.POSTGRESQL ? "CREATE DATABASE \"" + name + "\""
                    : "CREATE DATABASE IF NOT EXISTS `" + name + "`");
            // Created here, so dropped here: a test run leaves the server as it found it.
            Runtime.getRuntime().addShutdownHook(new Thread(this::dropAtExit, "drop-" + name));
        } catch (SQLException e) {
            if (PG_DUPLICATE_DATABASE.equals(e.getSQLState())) {
                return; // another test JVM created it in the meantime, and drops it
            }
            e.addSuppressed(unusable);
            throw new IllegalStateException("The test database '" + name + "' could not be used ("
                    + unusable.getMessage() + ") nor created by user '" + user + "' (" + e.getMessage()
                    + "): create it (CREATE DATABASE " + name + ") and grant it to that user, or point "
                    + "LEAF_TEST_JDBC_URL at a database it may use", e);
        }
    }

    /** The shutdown hook of a database this JVM created; a failure is reported, as nothing else could. */
    private void dropAtExit() {
        try {
            drop();
        } catch (IllegalStateException e) {
            System.err.println("[test database] " + e.getMessage() + ": " + e.getCause().getMessage());
        }
    }

    /**
     * Runs one statement on the server of {@link #url()}, outside any database (PostgreSQL's sessions
     * are always in one: there, its maintenance database {@code postgres}).
     */
    private void execute(String sql) throws SQLException {
        String serverUrl = urlPart(1) + (dialect == SqlDialect.POSTGRESQL ? "postgres" : "") + urlPart(3);
        try (Connection server = DriverManager.getConnection(serverUrl, user, password);
                Statement statement = server.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    /** Group 1: {@code jdbc:<driver>://host:port/}, 2: the database, 3: the parameters. */
    private String urlPart(int group) {
        Matcher m = URL.matcher(url);
        if (!m.matches()) {
            throw new IllegalStateException("expected jdbc:<driver>://host:port/database, got " + url);
        }
        return m.group(group);
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
