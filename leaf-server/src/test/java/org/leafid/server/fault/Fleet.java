package org.leafid.server.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The server processes of one suite run: where the jar and the logs are, free ports, a data
 * directory each, and a kill of every process at the end, also when the test JVM itself is
 * stopped (a shutdown hook), so no server outlives the run.
 */
final class Fleet implements AutoCloseable {

    private final String runId;
    private final Path jar;
    private final Path logs;
    private final Path dataRoot;
    private final List<ServerProcess> processes = new ArrayList<>();
    private final Thread killer = new Thread(this::killAll, "fault-fleet-killer");

    Fleet(String runId) throws IOException {
        this.runId = runId;
        this.jar = Path.of(System.getProperty("leaftest.server-jar", "target/leaf-server.jar")).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("The fault suite runs the server jar " + jar
                    + ", which does not exist: build it first (./mvnw -B -q -DskipTests package)");
        }
        this.logs = Files.createDirectories(
                Path.of(System.getProperty("leaftest.fault-logs", "target/fault-logs")).toAbsolutePath());
        this.dataRoot = Files.createTempDirectory("leaf-fault-" + runId + "-");
        Runtime.getRuntime().addShutdownHook(killer);
    }

    Path logs() {
        return logs;
    }

    /** A server that is not started yet, with a new port and an empty data directory. */
    synchronized ServerProcess server(String name, List<String> arguments, Map<String, String> environment) {
        return server(name, freePort(), dataRoot.resolve(name), arguments, environment);
    }

    /** A server on a given port and data directory, e.g. a second process reusing a first one's cache. */
    synchronized ServerProcess server(String name, int port, Path dataDir, List<String> arguments,
            Map<String, String> environment) {
        ServerProcess server = new ServerProcess(name, port, dataDir, logs.resolve(runId + "-" + name + ".log"), jar,
                arguments, environment);
        processes.add(server);
        return server;
    }

    /** Starts several servers at once and waits until all are ready. */
    static void startAll(List<ServerProcess> servers, Duration atMost) {
        servers.forEach(ServerProcess::start);
        servers.forEach(server -> server.awaitReady(atMost));
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills every process and removes the data directories (the logs stay in target/fault-logs). */
    @Override
    public void close() {
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(killer);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down, and the hook runs anyway
        }
        try (Stream<Path> files = Files.walk(dataRoot)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temp directory left behind is not worth failing the run for
        }
    }

    /** Kills every process but those kept (null ones are ignored), e.g. after a scenario, failed or not. */
    synchronized void killAllExcept(ServerProcess... keep) {
        List<ServerProcess> kept = Arrays.asList(keep);
        for (ServerProcess server : processes) {
            if (!kept.contains(server)) {
                try {
                    server.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private synchronized void killAll() {
        for (ServerProcess server : processes) {
            try {
                server.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
