package org.leafid.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A Redis master, a replica, a standby replica never promoted, and three Sentinels of the test's own
 * on free ports of 127.0.0.1:
 * what {@code spring.data.redis.sentinel.*} names. The replica replicates through a {@link TcpProxy},
 * so a test can hold it behind ({@link #holdReplicaBehind}) before it kills the master
 * ({@link #killMaster}) and the Sentinels promote the replica ({@link #awaitFailover}). The
 * Sentinels are {@code redis-server --sentinel}, Debian's redis-sentinel without its service.
 */
public final class RedisSentinelGroup implements AutoCloseable {

    /** The name the Sentinels monitor the master by ({@code spring.data.redis.sentinel.master}). */
    public static final String MASTER_NAME = "leaf-master";
    private static final Duration FAILOVER_WAIT = Duration.ofSeconds(30);

    private final RedisServerProcess master;
    private final TcpProxy replication;
    private final RedisServerProcess replica;
    /**
     * A second replica, fed straight from the master and never promoted ({@code replica-priority 0}):
     * after the failover it follows the promoted one, so a write there is still acknowledged by a
     * replica, as {@code leaf.snowflake.redis.replica-acks} (1 behind Sentinel) needs.
     */
    private final RedisServerProcess standby;
    private final List<Process> sentinels = new ArrayList<>();
    private final List<Integer> sentinelPorts = new ArrayList<>();
    private final Path dir;

    private RedisSentinelGroup(RedisServerProcess master, TcpProxy replication, RedisServerProcess replica,
            RedisServerProcess standby, Path dir) {
        this.master = master;
        this.replication = replication;
        this.replica = replica;
        this.standby = standby;
        this.dir = dir;
    }

    public static RedisSentinelGroup start() throws IOException, InterruptedException {
        RedisServerProcess master = RedisServerProcess.start();
        TcpProxy replication = new TcpProxy("127.0.0.1", master.port());
        RedisServerProcess replica = RedisServerProcess.startReplicaOf(replication.port());
        Path dir = Files.createTempDirectory("leaf-sentinel-");
        // Its full syncs' snapshots go to the group's directory, not the module's working directory.
        RedisServerProcess standby = RedisServerProcess.startReplicaOf(master.port(), List.of("--replica-priority",
                "0", "--dir", dir.toString()));
        RedisSentinelGroup group = new RedisSentinelGroup(master, replication, replica, standby, dir);
        Awaitility.await("the replicas in sync").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> ask(replica.port(), "INFO", "replication").contains("master_link_status:up")
                        && ask(standby.port(), "INFO", "replication").contains("master_link_status:up"));
        for (int i = 0; i < 3; i++) {
            group.startSentinel(i);
        }
        Awaitility.await("the sentinels to see the replica and each other").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> group.sentinelPorts.stream().allMatch(port -> {
                    String master1 = ask(port, "SENTINEL", "MASTER", MASTER_NAME);
                    return master1.contains("num-slaves\n2") && master1.contains("num-other-sentinels\n2");
                }));
        return group;
    }

    /** {@code spring.data.redis.sentinel.nodes}: host:port of each Sentinel. */
    public String nodes() {
        StringJoiner nodes = new StringJoiner(",");
        sentinelPorts.forEach(port -> nodes.add("127.0.0.1:" + port));
        return nodes.toString();
    }

    public List<Integer> sentinelPorts() {
        return List.copyOf(sentinelPorts);
    }

    public int masterPort() {
        return master.port();
    }

    public int replicaPort() {
        return replica.port();
    }

    /** Cuts the replica's stream: what the master is told from now on never reaches it. */
    public void holdReplicaBehind() {
        replication.cut();
    }

    /** SIGKILL to the master. */
    public void killMaster() throws InterruptedException {
        master.kill();
    }

    /**
     * {@code SIGSTOP} to the master: it answers nothing, its connections stay open, and the Sentinels
     * promote the replica after {@code down-after-milliseconds} (1 s) as if it had died.
     */
    public void freezeMaster() throws IOException, InterruptedException {
        master.pause();
    }

    /**
     * {@code SIGCONT} to the frozen master: it goes on believing it is the master until the Sentinels
     * turn it into a replica of the promoted one.
     */
    public void thawMaster() throws IOException, InterruptedException {
        master.resume();
    }

    /** Waits until the Sentinels name the replica as the master; how long that took, in milliseconds. */
    public long awaitFailover() {
        long started = System.nanoTime();
        Awaitility.await("the Sentinels to promote the replica").atMost(FAILOVER_WAIT).pollInterval(Duration.ofMillis(50))
                .until(() -> ask(sentinelPorts.get(0), "SENTINEL", "get-master-addr-by-name", MASTER_NAME)
                        .contains(Integer.toString(replica.port()))
                        && ask(replica.port(), "ROLE").startsWith("master"));
        return (System.nanoTime() - started) / 1_000_000;
    }

    @Override
    public void close() throws Exception {
        for (Process sentinel : sentinels) {
            sentinel.destroyForcibly();
            sentinel.waitFor(10, TimeUnit.SECONDS);
        }
        replica.close();
        standby.close();
        master.close();
        replication.close();
    }

    private void startSentinel(int index) throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Path config = dir.resolve("sentinel-" + index + ".conf");
        Files.writeString(config, String.join("\n",
                "port " + port,
                "bind 127.0.0.1",
                "dir " + dir,
                "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + master.port() + " 2",
                "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                "sentinel failover-timeout " + MASTER_NAME + " 10000",
                "sentinel parallel-syncs " + MASTER_NAME + " 1",
                ""), StandardCharsets.UTF_8);
        sentinels.add(new ProcessBuilder("redis-server", config.toString(), "--sentinel").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("sentinel-" + index + ".log").toFile()))
                .start());
        sentinelPorts.add(port);
    }

    /** One command through redis-cli; its output, or "" when it fails. */
    static String ask(int port, String... command) {
        List<String> full = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        full.addAll(List.of(command));
        try {
            Process cli = new ProcessBuilder(full).redirectErrorStream(true).start();
            if (!cli.waitFor(5, TimeUnit.SECONDS)) {
                cli.destroyForcibly();
                return "";
            }
            return new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
