package org.leafid.server.fault;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.leafid.testing.ProcessSignals;

/**
 * One real server: {@code java -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar leaf-server.jar} (lib/ beside it) on 127.0.0.1, with its own port,
 * data directory and log file. It can be killed ({@code kill -9}) and started again on the same
 * port and data directory; each start appends to the same log.
 */
final class ServerProcess {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    /**
     * A suite server lives for seconds: the C1 compiler alone and the serial collector spend less CPU on
     * so short a life than C2's compilations and G1's threads, and the suite's two lanes share 2 cores.
     * Neither changes what the server issues.
     */
    static final List<String> SHORT_LIVED = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    /** The jar's Main-Class, named when other classes come ahead of the jar on the class path. */
    private static final String MAIN_CLASS = "org.leafid.server.LeafServerApplication";
    /** Environment prefixes that would configure the child from the test JVM's environment. */
    private static final List<String> HOSTILE_ENV = List.of("LEAF_", "SPRING_", "SERVER_", "MANAGEMENT_",
            "LOGGING_", "LOADER_", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS");

    private final String name;
    private final int port;
    private final Path dataDir;
    private final Path log;
    private final Path jar;
    /** JVM options of a start with {@code -jar}: the class cache of the jar (none: empty). */
    private final List<String> jarOptions;
    private final List<String> arguments;
    private final Map<String, String> environment;
    private final HttpClient probe = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(PROBE_TIMEOUT).build();
    /** Class directories put ahead of the jar, e.g. the fault suite's clock hook; none for a plain start. */
    private final List<Path> addedClasses = new ArrayList<>();
    private Process process;
    private int starts;

    ServerProcess(String name, int port, Path dataDir, Path log, Path jar, List<String> jarOptions,
            List<String> arguments, Map<String, String> environment) {
        this.name = name;
        this.port = port;
        this.dataDir = dataDir;
        this.log = log;
        this.jar = jar;
        this.jarOptions = List.copyOf(jarOptions);
        this.arguments = List.copyOf(arguments);
        this.environment = Map.copyOf(environment);
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    Path dataDir() {
        return dataDir;
    }

    Path logFile() {
        return log;
    }

    /**
     * Starts this server with the classes of {@code directory} on its class path, ahead of the jar's:
     * {@code java -cp <directory>:leaf-server.jar <main class>} instead of {@code java -jar}, which
     * takes no other class path.
     */
    synchronized ServerProcess withClasses(Path directory) {
        addedClasses.add(directory);
        return this;
    }

    /** Starts the process (again, after a kill or stop) with the same port, data dir and arguments. */
    synchronized ServerProcess start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running");
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m"));
        command.addAll(SHORT_LIVED);
        if (addedClasses.isEmpty()) {
            command.addAll(jarOptions); // a cache made of the jar alone: not for a class path with more ahead
            command.addAll(List.of("-jar", jar.toString()));
        } else {
            List<String> classPath = new ArrayList<>();
            addedClasses.forEach(directory -> classPath.add(directory.toString()));
            classPath.add(jar.toString());
            command.addAll(List.of("-cp", String.join(File.pathSeparator, classPath), MAIN_CLASS));
        }
        command.addAll(List.of("--server.port=" + port, "--leaf.data-dir=" + dataDir));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dataDir.toFile()) // no ./leaf.properties of the developer's is picked up
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().keySet().removeIf(key -> HOSTILE_ENV.stream().anyMatch(key::startsWith));
        builder.environment().putAll(environment); // values are not written to the log: they may be secrets
        try {
            Files.createDirectories(dataDir);
            Files.writeString(log, "==== " + name + " start #" + (++starts) + " at " + Instant.now() + ": "
                    + String.join(" ", command) + " (environment: " + environment.keySet() + ")\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
        return this;
    }

    /** Waits until readiness is UP; fails at once, with the log's tail, if the process dies. */
    ServerProcess awaitReady(Duration atMost) {
        return awaitUp("/actuator/health/readiness", "ready", atMost);
    }

    /** Waits until liveness is UP (the port is open), whatever readiness says. */
    ServerProcess awaitLive(Duration atMost) {
        return awaitUp("/actuator/health/liveness", "live", atMost);
    }

    private ServerProcess awaitUp(String probe, String what, Duration atMost) {
        try {
            await().atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> {
                if (!isAlive()) {
                    throw new AssertionError(name + " exited with " + process.exitValue() + " while starting:\n"
                            + logTail(40));
                }
                return status(probe) == 200;
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(name + " was not " + what + " within " + atMost + ":\n" + logTail(40), e);
        }
        return this;
    }

    /** Waits for the process to end by itself and returns its exit code. */
    int awaitExit(Duration atMost) throws InterruptedException {
        if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " did not exit within " + atMost + ":\n" + logTail(40));
        }
        return process.exitValue();
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** {@code kill -9}: no shutdown hook, no graceful stop, nothing recorded on the way out. */
    void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new AssertionError(name + " survived kill -9 for 10 s");
            }
        }
    }

    /** {@code SIGSTOP}: every thread of the process stops where it is, as in a frozen VM or a long pause. */
    void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** {@code SIGCONT}: a paused process continues; nothing when it is not running. */
    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        ProcessSignals.send(process, name, this.name);
    }

    /** SIGTERM, the graceful stop; kill -9 if it takes longer than 30 s. */
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }

    /** The status of a GET, or -1 when there is no answer. */
    int status(String path) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(PROBE_TIMEOUT).GET().build();
            return probe.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    String logText() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many lines of the log contain a text. */
    long logLines(String containing) {
        return logText().lines().filter(line -> line.contains(containing)).count();
    }

    String logTail(int lines) {
        List<String> all = logText().lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }
}
