package org.leafid.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A redis-server of the test's own on a free port, without persistence, that the test kills
 * (SIGKILL) and starts again on the same port. Every wait is bounded.
 */
public final class RedisServerProcess implements AutoCloseable {

    private static final Duration START_WAIT = Duration.ofSeconds(10);
    /** A write acknowledged by a replica: SET's +OK, then WAIT's count of at least one. */
    private static final java.util.regex.Pattern ACKNOWLEDGED = java.util.regex.Pattern.compile("^\\+OK\r\n:[1-9]");

    private final int port;
    private final Path log;
    /**
     * Its working directory, a temporary one: a replica writes the RDB of a full sync there even
     * without persistence, and in the test's module directory that file would be a stray.
     */
    private final Path dir;
    private final List<String> extraArguments;
    private Process process;

    private RedisServerProcess(int port, List<String> extraArguments) throws IOException {
        this.port = port;
        this.log = Files.createTempFile("leaf-redis-test-" + port, ".log");
        this.dir = Files.createTempDirectory("leaf-redis-test-" + port + "-");
        this.extraArguments = List.copyOf(extraArguments);
    }

    public static RedisServerProcess start() throws IOException, InterruptedException {
        return start(List.of());
    }

    /** A replica of the Redis at {@code masterPort} on 127.0.0.1 (a relay's port, to hold it behind). */
    public static RedisServerProcess startReplicaOf(int masterPort) throws IOException, InterruptedException {
        return startReplicaOf(masterPort, List.of());
    }

    /** A replica, with more of redis-server's arguments ({@code --replica-priority 0}). */
    public static RedisServerProcess startReplicaOf(int masterPort, List<String> moreArguments)
            throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("--replicaof", "127.0.0.1",
                Integer.toString(masterPort)));
        arguments.addAll(moreArguments);
        RedisServerProcess replica = start(arguments);
        replica.awaitFirstSync(masterPort);
        return replica;
    }

    /**
     * Until the replica holds the master's data set (its link is up) and acknowledges what the
     * master writes now (a write, then WAIT, answered by a replica): what is written after this
     * reaches it as a replicated command, never inside the first sync's copy of the whole data set,
     * which would carry what the master keeps out of replication, and a WAIT counts it.
     */
    private void awaitFirstSync(int masterPort) {
        try {
            Awaitility.await("redis-server on port " + port + " synced with its master").atMost(START_WAIT)
                    .pollInterval(Duration.ofMillis(50)).until(() -> send(port, "INFO replication\r\n")
                            .contains("master_link_status:up")
                            && ACKNOWLEDGED.matcher(send(masterPort, "SET leaf-test-sync 1\r\nWAIT 1 200\r\n"
                                    + "DEL leaf-test-sync\r\n")).find());
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("the replica on port " + port + " did not sync with its master within "
                    + START_WAIT, e);
        }
    }

    private static RedisServerProcess start(List<String> extraArguments) throws IOException, InterruptedException {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        RedisServerProcess server = new RedisServerProcess(port, extraArguments);
        server.restart();
        return server;
    }

    public int port() {
        return port;
    }

    public void restart() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("redis-server on port " + port + " is already running");
        }
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
                // A replica's first sync starts at once, not after Redis's 5 s wait for more replicas.
                "--repl-diskless-sync-delay", "0"));
        command.addAll(extraArguments);
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        try {
            Awaitility.await("redis-server on port " + port).atMost(START_WAIT).pollInterval(Duration.ofMillis(20))
                    .until(() -> !process.isAlive() || answersPing());
        } catch (ConditionTimeoutException e) {
            // fall through to the one report below
        }
        if (!process.isAlive() || !answersPing()) {
            throw new IllegalStateException("redis-server did not start on port " + port + " within "
                    + START_WAIT + " (is redis-server installed?); log: " + Files.readString(log));
        }
    }

    /** SIGKILL, as a crash: no shutdown, no save. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("redis-server on port " + port + " did not die within 10 s");
        }
    }

    /** {@code SIGSTOP}: the server stops answering, its connections stay open (a frozen VM). */
    public void pause() throws IOException, InterruptedException {
        ProcessSignals.send(process, "STOP", "redis-server on port " + port);
    }

    /** {@code SIGCONT}: a paused server goes on. */
    public void resume() throws IOException, InterruptedException {
        ProcessSignals.send(process, "CONT", "redis-server on port " + port);
    }

    private boolean answersPing() {
        return send(port, "PING\r\n").startsWith("+PONG");
    }

    /**
     * The replies to inline commands, one line each (or INFO's bulk reply), as much as arrives until
     * a read waits 500 ms; empty when nothing answers.
     */
    private static String send(int port, String inlineCommands) {
        StringBuilder replies = new StringBuilder();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            out.write(inlineCommands.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            int expected = inlineCommands.split("\r\n").length;
            while (true) {
                int read = in.read(buffer);
                if (read <= 0) {
                    break;
                }
                replies.append(new String(buffer, 0, read, StandardCharsets.US_ASCII));
                // INFO's bulk reply comes whole in one read at its size; the others are a line each.
                if (replies.charAt(0) == '$' || replies.toString().split("\r\n", -1).length > expected) {
                    break;
                }
            }
        } catch (IOException notYet) {
            // what arrived so far, or nothing
        }
        return replies.toString();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            kill(); // SIGKILL ends a stopped process too
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("could not delete " + dir, e);
        }
    }
}
