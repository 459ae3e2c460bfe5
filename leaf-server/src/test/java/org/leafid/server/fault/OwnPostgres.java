package org.leafid.server.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server of the fault suite's own, never the machine's: a cluster made with
 * {@code initdb} in a temporary directory, run with {@code pg_ctl} on a free port of 127.0.0.1
 * (trust authentication, user {@code postgres}), so a scenario may restart it and end its sessions.
 * PostgreSQL refuses to run as root: when the tests do, its commands run as the {@code postgres}
 * user (runuser), who then owns the directory.
 */
final class OwnPostgres implements AutoCloseable {

    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(60);

    private final Path dir;
    private final Path bin;
    private final int port;

    private OwnPostgres(Path dir, Path bin, int port) {
        this.dir = dir;
        this.bin = bin;
        this.port = port;
    }

    /** Made and started; the binaries of the newest PostgreSQL under /usr/lib/postgresql. */
    static OwnPostgres start() throws IOException, InterruptedException {
        Path bin;
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            bin = versions.map(version -> version.resolve("bin"))
                    .filter(candidate -> Files.isExecutable(candidate.resolve("initdb")))
                    .max(Comparator.comparing(Path::toString))
                    .orElseThrow(() -> new IllegalStateException("no initdb under /usr/lib/postgresql"));
        }
        Path dir = Files.createTempDirectory("leaf-fault-pg-");
        OwnPostgres postgres = new OwnPostgres(dir, bin, Fleet.freePort());
        if (root()) {
            postgres.run(List.of("chown", "postgres:postgres", dir.toString()), false);
        }
        postgres.run(List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", "postgres",
                "--auth=trust", "--no-sync", "-E", "UTF8"), true);
        postgres.pgCtl("start", "-w");
        return postgres;
    }

    int port() {
        return port;
    }

    /** The url of {@code database} on this server. */
    String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** Stops (fast: sessions ended, a checkpoint) and starts again; the port is the same. */
    void restart() throws IOException, InterruptedException {
        pgCtl("restart", "-m", "fast", "-w");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            pgCtl("stop", "-m", "immediate", "-w");
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private void pgCtl(String... action) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(bin.resolve("pg_ctl").toString(), "-D",
                dir.resolve("data").toString(), "-l", dir.resolve("postgres.log").toString(), "-o",
                "-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=" + dir + " -c fsync=off"));
        command.addAll(List.of(action));
        run(command, true);
    }

    private void run(List<String> command, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres && root()) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Process process = new ProcessBuilder(full).redirectErrorStream(true)
                .redirectOutput(dir.resolve("commands.log").toFile()).start();
        if (!process.waitFor(COMMAND_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish within " + COMMAND_LIMIT);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (exit " + process.exitValue() + "): "
                    + Files.readString(dir.resolve("commands.log")));
        }
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }
}
