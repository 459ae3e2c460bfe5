package org.leafid.testing.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A MariaDB Galera cluster of the test's own: {@code nodes} mariadbd processes on loopback, each with
 * its data directory under {@code dir}, joined by Debian's {@code galera-4} provider (state transfer by
 * rsync). The first node bootstraps the cluster, the others join it. A node can be killed (SIGKILL,
 * as a machine that dies) and started again, when it rejoins and catches up. Every wait is bounded.
 *
 * <p>Root may connect over TCP from 127.0.0.1 without a password (the data directories are made
 * with {@code --auth-root-authentication-method=normal}); the database {@code leaf_test} exists.
 */
public final class GaleraCluster implements AutoCloseable {

    private static final Path PROVIDER = Path.of("/usr/lib/galera/libgalera_smm.so");
    private static final Duration START_WAIT = Duration.ofSeconds(90);
    private static final String DATABASE = "leaf_test";
    private static final boolean AS_ROOT = "root".equals(System.getProperty("user.name"));

    private final Path dir;
    private final List<Node> nodes;
    private final Process[] processes;

    /** One node's ports: the SQL port, Galera's group port, its incremental and its full state transfer. */
    private record Node(int index, int sqlPort, int groupPort, int istPort, int sstPort) {
        String name() {
            return "node" + index;
        }
    }

    private GaleraCluster(Path dir, List<Node> nodes) {
        this.dir = dir;
        this.nodes = List.copyOf(nodes);
        this.processes = new Process[nodes.size()];
    }

    /**
     * Makes the data directories and starts every node, the first one bootstrapping the cluster.
     *
     * @throws IllegalStateException when galera-4 or MariaDB is missing, or a node does not join in time
     */
    public static GaleraCluster start(Path dir, int size) throws IOException, InterruptedException {
        if (!Files.isRegularFile(PROVIDER)) {
            throw new IllegalStateException("No Galera provider at " + PROVIDER + ": install galera-4 "
                    + "(Debian: apt-get install -y galera-4 rsync)");
        }
        List<Node> nodes = new ArrayList<>();
        List<Integer> ports = freePorts(4 * size);
        for (int i = 0; i < size; i++) {
            nodes.add(new Node(i + 1, ports.get(4 * i), ports.get(4 * i + 1), ports.get(4 * i + 2), ports.get(4 * i + 3)));
        }
        GaleraCluster cluster = new GaleraCluster(dir, nodes);
        for (Node node : nodes) {
            cluster.install(node);
        }
        cluster.startNode(0, true);
        cluster.execute(0, "CREATE DATABASE IF NOT EXISTS " + DATABASE);
        for (int i = 1; i < size; i++) {
            cluster.startNode(i, false);
        }
        return cluster;
    }

    /** The JDBC URL of node {@code index} (0-based), database {@code leaf_test}. */
    public String url(int index) {
        return "jdbc:mysql://127.0.0.1:" + nodes.get(index).sqlPort() + "/" + DATABASE;
    }

    /**
     * One URL naming every node (Connector/J's failover list): a client that loses one goes on to the
     * next. {@code failOverReadOnly=false} because Connector/J otherwise makes a connection to any
     * node but the first read-only, and every reservation after a failover would be refused.
     */
    public String multiHostUrl() {
        StringJoiner hosts = new StringJoiner(",");
        nodes.forEach(node -> hosts.add("127.0.0.1:" + node.sqlPort()));
        return "jdbc:mysql://" + hosts + "/" + DATABASE + "?failOverReadOnly=false";
    }

    public int size() {
        return nodes.size();
    }

    /** SIGKILL to node {@code index}: no shutdown, no goodbye to the cluster. */
    public void kill(int index) throws InterruptedException {
        Process process = processes[index];
        process.destroyForcibly();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            throw new IllegalStateException(nodes.get(index).name() + " did not die within 20 s");
        }
    }

    /** Starts a killed node again; it rejoins the cluster and is back once it says it is synced. */
    public void restart(int index) throws IOException {
        startNode(index, false);
    }

    /** How many nodes node {@code index} sees in its primary component. */
    public int clusterSize(int index) throws SQLException {
        try (Connection connection = connect(index); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SHOW STATUS LIKE 'wsrep_cluster_size'")) {
            return row.next() ? Integer.parseInt(row.getString(2)) : 0;
        }
    }

    public Connection connect(int index) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + nodes.get(index).sqlPort() + "/", "root", "");
    }

    private void install(Node node) throws IOException, InterruptedException {
        Path home = Files.createDirectories(dir.resolve(node.name()));
        if (AS_ROOT) {
            // mariadbd drops to the mysql user; it must reach its own directory.
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setOwner(home, home.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("mysql"));
        }
        Files.writeString(home.resolve("my.cnf"), config(node, home), StandardCharsets.UTF_8);
        Process install = new ProcessBuilder("mariadb-install-db", "--defaults-file=" + home.resolve("my.cnf"),
                "--auth-root-authentication-method=normal", "--skip-test-db")
                .redirectErrorStream(true).redirectOutput(home.resolve("install.log").toFile()).start();
        if (!install.waitFor(120, TimeUnit.SECONDS) || install.exitValue() != 0) {
            install.destroyForcibly();
            throw new IllegalStateException("mariadb-install-db failed for " + node.name() + ": "
                    + Files.readString(home.resolve("install.log")));
        }
    }

    private String config(Node node, Path home) {
        StringJoiner members = new StringJoiner(",");
        nodes.forEach(other -> members.add("127.0.0.1:" + other.groupPort()));
        return String.join("\n",
                "[mysqld]",
                "datadir=" + home.resolve("data"),
                "socket=" + home.resolve("mysqld.sock"),
                "pid-file=" + home.resolve("mysqld.pid"),
                "port=" + node.sqlPort(),
                "bind-address=127.0.0.1",
                "skip-name-resolve",
                // As root the state transfer's rsync daemon cannot write the joiner's directory: run
                // the nodes as the mysql user, as the packaged server does.
                "user=" + (AS_ROOT ? "mysql" : System.getProperty("user.name")),
                "innodb_buffer_pool_size=32M",
                "innodb_log_file_size=16M",
                "binlog_format=ROW",
                "default_storage_engine=InnoDB",
                "innodb_autoinc_lock_mode=2",
                "wsrep_on=ON",
                "wsrep_provider=" + PROVIDER,
                "wsrep_cluster_name=leaf-test-" + nodes.get(0).groupPort(),
                "wsrep_cluster_address=gcomm://" + members,
                "wsrep_node_name=" + node.name(),
                "wsrep_node_address=127.0.0.1:" + node.groupPort(),
                "wsrep_provider_options=\"gmcast.listen_addr=tcp://127.0.0.1:" + node.groupPort()
                        + ";ist.recv_addr=127.0.0.1:" + node.istPort() + ";gcache.size=32M\"",
                "wsrep_sst_receive_address=127.0.0.1:" + node.sstPort(),
                "wsrep_sst_method=rsync",
                "");
    }

    private void startNode(int index, boolean bootstrap) throws IOException {
        Node node = nodes.get(index);
        Path home = dir.resolve(node.name());
        List<String> command = new ArrayList<>(List.of("mariadbd", "--defaults-file=" + home.resolve("my.cnf")));
        if (bootstrap) {
            command.add("--wsrep-new-cluster");
        }
        processes[index] = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("mariadbd.log").toFile())).start();
        Process process = processes[index];
        try {
            Awaitility.await(node.name() + " synced").atMost(START_WAIT).pollInterval(Duration.ofMillis(200))
                    .until(() -> !process.isAlive() || synced(index));
        } catch (ConditionTimeoutException e) {
            // reported below, with the log
        }
        if (!process.isAlive() || !synced(index)) {
            process.destroyForcibly();
            throw new IllegalStateException(node.name() + " did not join the Galera cluster within " + START_WAIT
                    + "; the end of its log: " + tail(home.resolve("mariadbd.log")));
        }
    }

    private boolean synced(int index) {
        try (Connection connection = connect(index); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SHOW STATUS LIKE 'wsrep_local_state_comment'")) {
            return row.next() && "Synced".equals(row.getString(2));
        } catch (SQLException notYet) {
            return false;
        }
    }

    private void execute(int index, String sql) {
        try (Connection connection = connect(index); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("could not run " + sql + " on " + nodes.get(index).name(), e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Distinct free ports, all held until all are found, so that no two come out the same. */
    private static List<Integer> freePorts(int count) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0);
                held.add(socket);
                ports.add(socket.getLocalPort());
            }
            return ports;
        } finally {
            for (ServerSocket socket : held) {
                socket.close();
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (int i = processes.length - 1; i >= 0; i--) {
            if (processes[i] != null && processes[i].isAlive()) {
                kill(i);
            }
        }
    }
}
