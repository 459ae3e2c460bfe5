package org.leafid.testing.jdbc;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.leafid.testing.TcpProxy;

/**
 * A PostgreSQL server of a test's own, never the machine's: a cluster made with {@code initdb} (or
 * copied from a primary with {@code pg_basebackup}, as a streaming standby) in a temporary
 * directory, run with {@code pg_ctl} on a free port of 127.0.0.1, trust authentication, user
 * {@code postgres}, so a test may restart it, kill it, or promote it.
 *
 * <p>A standby streams from its primary through a {@link TcpProxy}, so a test can hold it behind:
 * {@link #cutReplication()} stops the stream, and what the primary commits from then on never
 * reaches the standby, as with an asynchronous standby that lagged when its primary died.
 * ({@code recovery_min_apply_delay} cannot do that: promotion replays the WAL a standby received.)
 *
 * <p>PostgreSQL refuses to run as root: when the tests do, its commands run as the {@code postgres}
 * user (runuser), who then owns the directory.
 */
public final class PostgresServer implements AutoCloseable {

    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(60);
    /** The name a standby reports, which {@code synchronous_standby_names} names. */
    private static final String STANDBY_NAME = "leaf_standby";

    private final Path dir;
    private final Path bin;
    private final int port;
    private final TcpProxy replication;

    private PostgresServer(Path dir, Path bin, int port, TcpProxy replication) {
        this.dir = dir;
        this.bin = bin;
        this.port = port;
        this.replication = replication;
    }

    /** A new cluster, started; the binaries of the newest PostgreSQL under /usr/lib/postgresql. */
    public static PostgresServer start() throws IOException, InterruptedException {
        PostgresServer server = new PostgresServer(newDir(), binaries(), freePort(), null);
        server.run(List.of(server.bin.resolve("initdb").toString(), "-D", server.data().toString(), "-U", "postgres",
                "--auth=trust", "--no-sync", "-E", "UTF8"), true);
        server.pgCtl("start", "-w");
        return server;
    }

    /**
     * A streaming standby of this server, started and caught up: a copy made with
     * {@code pg_basebackup}, streaming through a relay of its own.
     *
     * @param synchronous whether the primary waits for the standby to confirm every commit
     *     ({@code synchronous_standby_names}); otherwise it is asynchronous
     */
    public PostgresServer standby(boolean synchronous) throws IOException, InterruptedException {
        TcpProxy relay = new TcpProxy("127.0.0.1", port);
        PostgresServer standby = new PostgresServer(newDir(), bin, freePort(), relay);
        standby.run(List.of(bin.resolve("pg_basebackup").toString(), "-h", "127.0.0.1", "-p", String.valueOf(port),
                "-U", "postgres", "-D", standby.data().toString(), "-R", "-X", "stream", "--no-sync"), true);
        Files.writeString(standby.data().resolve("postgresql.auto.conf"), "primary_conninfo = 'host=127.0.0.1 port="
                + relay.port() + " user=postgres application_name=" + STANDBY_NAME + "'\n",
                java.nio.file.StandardOpenOption.APPEND);
        standby.pgCtl("start", "-w");
        if (synchronous) {
            sql("ALTER SYSTEM SET synchronous_standby_names = '" + STANDBY_NAME + "'");
            sql("SELECT pg_reload_conf()");
        }
        return standby;
    }

    public int port() {
        return port;
    }

    /** The url of {@code database} on this server. */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** Stops (fast: sessions ended, a checkpoint) and starts again; the port is the same. */
    public void restart() throws IOException, InterruptedException {
        pgCtl("restart", "-m", "fast", "-w");
    }

    /** Stops at once, as a crash does: no checkpoint, sessions dropped. */
    public void kill() throws IOException, InterruptedException {
        pgCtl("stop", "-m", "immediate", "-w");
    }

    /** Starts it again after {@link #kill}: crash recovery from its WAL, on the same port. */
    public void startAgain() throws IOException, InterruptedException {
        pgCtl("start", "-w");
    }

    /** Ends recovery of a standby: it becomes a primary on a new timeline. */
    public void promote() throws IOException, InterruptedException {
        pgCtl("promote", "-w");
    }

    /** Stops the stream of a standby: nothing its primary commits from now on reaches it. */
    public void cutReplication() {
        if (replication == null) {
            throw new IllegalStateException("not a standby");
        }
        replication.cut();
    }

    /** Runs one statement as {@code postgres} in database {@code postgres} (psql). */
    public void sql(String statement) throws IOException, InterruptedException {
        run(List.of("psql", "-h", "127.0.0.1", "-p", String.valueOf(port), "-U", "postgres", "-d", "postgres",
                "-v", "ON_ERROR_STOP=1", "-Atc", statement), false);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            if (Files.exists(data().resolve("postmaster.pid"))) {
                kill();
            }
        } finally {
            if (replication != null) {
                replication.close();
            }
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private Path data() {
        return dir.resolve("data");
    }

    private void pgCtl(String... action) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(bin.resolve("pg_ctl").toString(), "-D", data().toString(), "-l",
                dir.resolve("postgres.log").toString(), "-o", "-p " + port + " -c listen_addresses=127.0.0.1"
                        + " -c unix_socket_directories=" + dir + " -c fsync=off"));
        command.addAll(List.of(action));
        run(command, true);
    }

    private void run(List<String> command, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres && root()) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Path output = dir.resolve("commands.log");
        Process process = new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!process.waitFor(COMMAND_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish within " + COMMAND_LIMIT);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (exit " + process.exitValue() + "): "
                    + Files.readString(output));
        }
    }

    private static Path newDir() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("leaf-test-pg-");
        if (root()) {
            Process chown = new ProcessBuilder("chown", "postgres:postgres", dir.toString()).inheritIO().start();
            if (!chown.waitFor(COMMAND_LIMIT.toSeconds(), TimeUnit.SECONDS) || chown.exitValue() != 0) {
                throw new IllegalStateException("chown postgres " + dir + " failed");
            }
        }
        return dir;
    }

    private static Path binaries() throws IOException {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(version -> version.resolve("bin"))
                    .filter(candidate -> Files.isExecutable(candidate.resolve("initdb")))
                    .max(Comparator.comparing(Path::toString))
                    .orElseThrow(() -> new IllegalStateException("no initdb under /usr/lib/postgresql"));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }
}
