package org.leafid.server.fault;

import java.io.IOException;
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
 * stopped (a shutdown hook), so no server outlives the run. A scenario works on a {@link #scope()}
 * of the run's fleet, so that the kill at its end leaves the servers of a scenario running beside
 * it alone.
 */
final class Fleet implements AutoCloseable {

    private final String runId;
    private final Path jar;
    private final Path logs;
    private final Path dataRoot;
    /** The JVM options that start a server from the class cache ops/start-cache.sh made of the jar. */
    private final List<String> startCache;
    private final List<ServerProcess> processes = new ArrayList<>();
    /** The server ports handed out in the run (the run's fleet keeps them; a scope asks it). */
    private final java.util.Set<Integer> handedOut = new java.util.HashSet<>();
    private final java.util.Random random = new java.util.Random();
    private static final int FIRST_PORT = 20_000;
    private static final int LAST_PORT = 32_000;
    /** The run's fleet, which kills every process at its end; null for the run's fleet itself. */
    private final Fleet run;
    /** The run's shutdown hook; null for a scope, which the run's hook covers. */
    private final Thread killer;

    Fleet(String runId) throws IOException {
        this.run = null;
        this.killer = new Thread(this::killAll, "fault-fleet-killer");
        this.runId = runId;
        this.jar = Path.of(System.getProperty("leaftest.server-jar", "target/leaf-server.jar")).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("The fault suite runs the server jar " + jar
                    + ", which does not exist: build it first (./mvnw -B -q -DskipTests package)");
        }
        this.logs = Files.createDirectories(
                Path.of(System.getProperty("leaftest.fault-logs", "target/fault-logs")).toAbsolutePath());
        this.dataRoot = Files.createTempDirectory("leaf-fault-" + runId + "-");
        this.startCache = startCache(jar, logs);
        Runtime.getRuntime().addShutdownHook(killer);
    }

    private Fleet(Fleet run) {
        this.run = run;
        this.killer = null;
        this.runId = run.runId;
        this.jar = run.jar;
        this.logs = run.logs;
        this.dataRoot = run.dataRoot;
        this.startCache = run.startCache;
    }

    /**
     * The same fleet for one scenario: its servers are also the run's (killed at the run's end), but
     * {@link #killAllExcept} of the scope kills only the ones started through it.
     */
    Fleet scope() {
        return new Fleet(run == null ? this : run);
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
                startCache, arguments, environment);
        processes.add(server);
        if (run != null) {
            run.adopt(server);
        }
        return server;
    }

    /** Starts several servers at once and waits until all are ready. */
    static void startAll(List<ServerProcess> servers, Duration atMost) {
        servers.forEach(ServerProcess::start);
        servers.forEach(server -> server.awaitReady(atMost));
    }

    /**
     * Makes the class cache every server of the suite starts from, with ops/start-cache.sh (the
     * script users run; its training start is one more server start), and returns the options it
     * prints for using it: the words between {@code java} and {@code -jar}. The suite starts
     * about 40 server JVMs, and each loads the same classes.
     */
    private static List<String> startCache(Path jar, Path logs) throws IOException {
        // The suites of one test JVM (ReliabilityFaultIT and LeafClientIT run side by side) share one
        // cache: the first makes it, the others find it made after the jar and read its options.
        synchronized (Fleet.class) {
            Path output = logs.resolve("start-cache.out");
            if (!Files.isRegularFile(output)
                    || Files.getLastModifiedTime(output).compareTo(Files.getLastModifiedTime(jar)) < 0) {
                makeStartCache(jar, output);
            }
            List<String> lines = Files.readAllLines(output);
            List<String> words = Arrays.asList(lines.get(lines.size() - 1).trim().split(" "));
            int jarAt = words.indexOf("-jar");
            if (jarAt < 1) {
                throw new IllegalStateException("ops/start-cache.sh printed no start command: " + lines);
            }
            return List.copyOf(words.subList(1, jarAt));
        }
    }

    private static void makeStartCache(Path jar, Path output) throws IOException {
        Path script = Path.of("..", "ops", "start-cache.sh").toAbsolutePath().normalize();
        Path javaCommand = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(script.toString(), jar.toString(),
                jar.resolveSibling("fault-start-cache").toString(), javaCommand.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            if (!process.waitFor(3, java.util.concurrent.TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("ops/start-cache.sh failed; its output is in " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while ops/start-cache.sh made the class cache", e);
        }
    }

    private synchronized void adopt(ServerProcess server) {
        processes.add(server);
    }

    /**
     * A port for a server of the run: below Linux's ephemeral range (32768 and up), where neither an
     * outgoing connection's local port nor a bind to port 0 (the databases, Redis and ZooKeeper the
     * scenarios start) can take it between this check and the server's start, and never one handed out
     * before in the run, so that two lanes starting servers at once cannot meet on one.
     */
    private int freePort() {
        if (run != null) {
            return run.freePort();
        }
        synchronized (handedOut) {
            for (int attempt = 0; attempt < 1_000; attempt++) {
                int port = FIRST_PORT + random.nextInt(LAST_PORT - FIRST_PORT);
                if (handedOut.add(port) && bindable(port)) {
                    return port;
                }
            }
        }
        throw new IllegalStateException("no free port in " + FIRST_PORT + ".." + LAST_PORT + " after 1,000 tries");
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }

    /** Kills every process and removes the data directories (the logs stay in target/fault-logs). */
    @Override
    public void close() {
        if (run != null) {
            throw new IllegalStateException("a scope is closed with the run's fleet");
        }
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
