package org.leafid.testing.jdbc;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.leafid.testing.ProcessSignals;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A MariaDB server of a test's own, never the machine's: {@code mariadb-install-db} in a directory
 * of the test, {@code mariadbd} on a free port of 127.0.0.1 with its binary log on, so that a second
 * one can replicate from it ({@link #replica}) and a test can kill the first and promote the second.
 *
 * <p>Leaf reaches it as user {@value #USER} (password {@value #PASSWORD}), who may do everything in
 * database {@value #DATABASE} but nothing an administrator may: a replica is {@code read_only}, and
 * {@code read_only} does not stop an administrator such as root.
 */
public final class MariadbServer implements AutoCloseable {

    public static final String DATABASE = "leaf";
    public static final String USER = "leaf";
    public static final String PASSWORD = "leaf-test";

    private static final Duration START_WAIT = Duration.ofSeconds(60);
    private static final boolean AS_ROOT = "root".equals(System.getProperty("user.name"));

    private final Path home;
    private final int port;
    private final int serverId;
    private Process process;

    private MariadbServer(Path home, int port, int serverId) {
        this.home = home;
        this.port = port;
        this.serverId = serverId;
    }

    /** A primary: installed, started, with database {@value #DATABASE} and user {@value #USER}. */
    public static MariadbServer primary(Path dir) throws IOException, InterruptedException, SQLException {
        MariadbServer server = install(dir.resolve("primary"), 1, false);
        server.start();
        server.execute("CREATE DATABASE " + DATABASE);
        server.execute("CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
        server.execute("GRANT ALL ON " + DATABASE + ".* TO '" + USER + "'@'%'");
        return server;
    }

    /**
     * A read-only replica of this server, started from the beginning of its binary log (so this
     * server's database and user come with it), applying every event {@code delaySeconds} after it
     * was committed here ({@code MASTER_DELAY}).
     */
    public MariadbServer replica(Path dir, int delaySeconds) throws IOException, InterruptedException, SQLException {
        MariadbServer replica = install(dir.resolve("replica"), serverId + 1, true);
        replica.start();
        replica.execute("CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=" + port + ", MASTER_USER='root',"
                + " MASTER_PASSWORD='', MASTER_USE_GTID=no, MASTER_LOG_FILE='mariadb-bin.000001', MASTER_LOG_POS=4,"
                + " MASTER_DELAY=" + delaySeconds + ", MASTER_CONNECT_RETRY=1");
        replica.execute("START SLAVE");
        return replica;
    }

    /** Makes a replica the primary: stops replicating, forgets its primary (and the events it had not applied), writable. */
    public void promote() throws SQLException {
        execute("STOP SLAVE");
        execute("RESET SLAVE ALL");
        execute("SET GLOBAL read_only = 0");
    }

    /** SIGKILL: no shutdown. */
    public void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("mariadbd in " + home + " did not die within 20 s");
            }
        }
    }

    /** Starts it again on its data directory and port, after {@link #kill}: crash recovery, as after a power cut. */
    public void startAgain() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("mariadbd in " + home + " still runs");
        }
        start();
    }

    /** SIGSTOP: the server holds every connection and answers nothing, as a stalled host does. */
    public void pause() throws IOException, InterruptedException {
        ProcessSignals.send(process, "STOP", "mariadbd in " + home);
    }

    /** SIGCONT after {@link #pause}. */
    public void resume() throws IOException, InterruptedException {
        ProcessSignals.send(process, "CONT", "mariadbd in " + home);
    }

    public int port() {
        return port;
    }

    /** The url of database {@value #DATABASE} on this server. */
    public String url() {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + DATABASE;
    }

    /** Runs a statement as root. */
    public void execute(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/", "root", "");
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }

    private static MariadbServer install(Path home, int serverId, boolean readOnly)
            throws IOException, InterruptedException {
        Files.createDirectories(home);
        if (AS_ROOT) {
            // mariadbd drops to the mysql user; it must reach its own directory (the test's directory
            // and this one, never the system's temporary directory above them).
            Files.setPosixFilePermissions(home.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setOwner(home, home.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("mysql"));
        }
        MariadbServer server = new MariadbServer(home, freePort(), serverId);
        Files.writeString(home.resolve("my.cnf"), String.join("\n",
                "[mysqld]",
                "datadir=" + home.resolve("data"),
                "socket=" + home.resolve("mysqld.sock"),
                "pid-file=" + home.resolve("mysqld.pid"),
                "port=" + server.port,
                "bind-address=127.0.0.1",
                "skip-name-resolve",
                "user=" + (AS_ROOT ? "mysql" : System.getProperty("user.name")),
                "server_id=" + serverId,
                "log_bin=mariadb-bin",
                "binlog_format=ROW",
                "read_only=" + (readOnly ? 1 : 0),
                "innodb_buffer_pool_size=32M",
                "innodb_log_file_size=16M",
                "innodb_flush_log_at_trx_commit=2",
                "sync_binlog=0",
                ""), StandardCharsets.UTF_8);
        Process install = new ProcessBuilder("mariadb-install-db", "--defaults-file=" + home.resolve("my.cnf"),
                "--auth-root-authentication-method=normal", "--skip-test-db")
                .redirectErrorStream(true).redirectOutput(home.resolve("install.log").toFile()).start();
        if (!install.waitFor(120, TimeUnit.SECONDS) || install.exitValue() != 0) {
            install.destroyForcibly();
            throw new IllegalStateException("mariadb-install-db failed in " + home + ": "
                    + Files.readString(home.resolve("install.log")));
        }
        return server;
    }

    private void start() throws IOException {
        process = new ProcessBuilder(List.of("mariadbd", "--defaults-file=" + home.resolve("my.cnf")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("mariadbd.log").toFile())).start();
        try {
            Awaitility.await("mariadbd in " + home).atMost(START_WAIT).pollInterval(Duration.ofMillis(200))
                    .until(() -> !process.isAlive() || answers());
        } catch (ConditionTimeoutException e) {
            // reported below, with the log
        }
        if (!process.isAlive() || !answers()) {
            process.destroyForcibly();
            throw new IllegalStateException("mariadbd in " + home + " did not start within " + START_WAIT + ": "
                    + Files.readString(home.resolve("mariadbd.log")));
        }
    }

    private boolean answers() {
        try {
            execute("SELECT 1");
            return true;
        } catch (SQLException notYet) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
