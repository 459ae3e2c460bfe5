package org.leafid.bench;

import com.alibaba.druid.pool.DruidDataSource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.leafid.core.segment.AllocRow;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The time of one segment block reservation ({@code LeafAllocRepository.reserve}) against a real
 * database on this machine: MariaDB (Leaf's transaction: UPDATE, SELECT, the high-water check,
 * COMMIT) beside PostgreSQL (one statement). Run from the repository's root, which has the table
 * scripts; the databases are the local ones the tests use, as root / postgres without a password,
 * in a database {@code leaf_bench} made when missing:
 *
 * <pre>java -jar leaf-bench/target/benchmarks.jar BlockReservationBenchmark -f 1 -wi 2 -w 2s -i 5 -r 2s</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BlockReservationBenchmark {

    static final String TAG = "bench-reservation";

    @Param({"mariadb", "postgresql"})
    public String database;

    private DruidDataSource pool;
    private LeafAllocRepository store;

    @Setup(Level.Trial)
    public void open() throws Exception {
        pool = openDatabase(database, "leaf_bench");
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("DELETE FROM leaf_alloc WHERE biz_tag = '" + TAG + "'");
            statement.executeUpdate("DELETE FROM leaf_high_water WHERE name = 'leaf_alloc:" + TAG + "'");
            statement.executeUpdate("INSERT INTO leaf_alloc(biz_tag, max_id, step, description) VALUES ('"
                    + TAG + "', 1, 1000, 'BlockReservationBenchmark')");
        }
        store = new LeafAllocRepository(LeafSqlSessions.create(pool,
                database.equals("postgresql") ? SqlDialect.POSTGRESQL : SqlDialect.MYSQL));
    }

    /**
     * A pool on database {@code name} of the local MariaDB or PostgreSQL ({@code kind}), made when
     * missing, with {@code leaf_alloc} and {@code leaf_high_water}.
     */
    static DruidDataSource openDatabase(String kind, String name) throws Exception {
        return openDatabase(kind, name, 0);
    }

    /**
     * @param boundMillis when positive, the pool's wait for a connection and for each answer, as the
     *     server bounds a store of {@code leaf.jdbc.stores} by {@code leaf.jdbc.store-timeout}
     */
    static DruidDataSource openDatabase(String kind, String name, int boundMillis) throws Exception {
        boolean postgres = kind.equals("postgresql");
        String server = postgres ? "jdbc:postgresql://127.0.0.1:5432/" : "jdbc:mysql://127.0.0.1:3306/";
        String user = postgres ? "postgres" : "root";
        createDatabase(server, user, postgres, name);
        DruidDataSource pool = new DruidDataSource();
        pool.setUrl(server + name);
        pool.setUsername(user);
        pool.setPassword("");
        pool.setMaxActive(4);
        if (boundMillis > 0) {
            pool.setMaxWait(boundMillis);
            pool.setSocketTimeout(boundMillis);
        }
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            String script = Files.readString(Path.of(postgres ? "sql/postgresql/leaf_alloc.sql" : "sql/leaf_alloc.sql"),
                    StandardCharsets.UTF_8);
            if (postgres) {
                statement.execute(script);
                statement.execute(Files.readString(Path.of("sql/postgresql/leaf_high_water.sql")));
            } else {
                for (String part : script.split(";\\s*\\n")) {
                    statement.execute(part);
                }
                statement.execute(Files.readString(Path.of("sql/leaf_high_water.sql")).replace(";", ""));
            }
        }
        return pool;
    }

    @TearDown(Level.Trial)
    public void close() {
        pool.close();
    }

    @Benchmark
    public AllocRow reserve() {
        return store.reserve(TAG, 1);
    }

    private static void createDatabase(String server, String user, boolean postgres, String name)
            throws SQLException {
        try (Connection connection = DriverManager.getConnection(server + (postgres ? "postgres" : ""), user, "")) {
            if (postgres) {
                try (PreparedStatement exists = connection.prepareStatement(
                        "SELECT 1 FROM pg_database WHERE datname = ?")) {
                    exists.setString(1, name);
                    if (exists.executeQuery().next()) {
                        return;
                    }
                }
                try (Statement statement = connection.createStatement()) {
                    statement.execute("CREATE DATABASE " + name);
                }
            } else {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("CREATE DATABASE IF NOT EXISTS " + name);
                }
            }
        }
    }
}
