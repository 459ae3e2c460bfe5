package org.leafid.autoconfigure.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.WorkerLease;
import org.leafid.core.worker.local.LocalWorkerIdRegistry;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.jdbc.worker.mysql.MysqlWorkerIdRegistry;
import org.leafid.redis.worker.RedisWorkerIdRegistry;
import org.leafid.redis.worker.RedisWorkerSettings;
import org.leafid.zookeeper.ZkPaths;
import org.leafid.zookeeper.zknormal.ZkNormalWorkerIdRegistry;
import org.leafid.zookeeper.zkrecycle.RecycleSweeper;
import org.leafid.zookeeper.zkrecycle.ZkRecycleWorkerIdRegistry;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * An application that only wants snowflake IDs, started in each worker-id mode: the mode's
 * registry is the one made, the worker id it hands out is held, and the IDs taken from several
 * threads are unique and carry that worker id.
 */
class WorkerIdModesTest {

    private static final int THREADS = 4;
    private static final int IDS_PER_THREAD = 20_000;
    /** The mysql mode keeps a row per ip:port for good: a fixed port reuses this test's row on every run. */
    private static final int MYSQL_PORT = 19511;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class SnowflakeApplication {}

    @TempDir
    Path dataDir;

    private TestingServer zookeeper;
    private final String name = "modes-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void startZookeeper() throws Exception {
        zookeeper = new TestingServer(true);
    }

    @AfterEach
    void stopZookeeper() throws Exception {
        zookeeper.close();
    }

    @Test
    void localModeHoldsTheConfiguredWorkerId() throws Exception {
        List<String> settings = settings(19510);
        settings.addAll(List.of("leaf.snowflake.mode=local", "leaf.snowflake.local.worker-id=17"));
        try (ConfigurableApplicationContext application = start(settings)) {
            assertThat(application.getBean(WorkerIdRegistry.class)).isInstanceOf(LocalWorkerIdRegistry.class);
            assertThat(issueAndCheck(application)).isEqualTo(17);
        }
    }

    @Test
    void zkNormalModeHoldsTheWorkerIdOfThisInstancesNode() throws Exception {
        List<String> settings = settings(19512);
        settings.addAll(List.of("leaf.snowflake.mode=zk_normal",
                "leaf.snowflake.zk.address=" + zookeeper.getConnectString()));
        try (ConfigurableApplicationContext application = start(settings);
                CuratorFramework zk = connect()) {
            assertThat(application.getBean(WorkerIdRegistry.class)).isInstanceOf(ZkNormalWorkerIdRegistry.class);
            int workerId = issueAndCheck(application);
            // Leaf's node: {ip:port}-{sequence}, the sequence being the worker id
            List<String> nodes = zk.getChildren().forPath(new ZkPaths(name).forever());
            assertThat(nodes).singleElement().satisfies(node -> {
                assertThat(node).startsWith("127.0.0.1:19512-");
                assertThat(Integer.parseInt(node.substring(node.lastIndexOf('-') + 1))).isEqualTo(workerId);
            });
        }
    }

    @Test
    void zkRecycleModeHoldsAnIdLeasedFromThePool() throws Exception {
        List<String> settings = settings(19513);
        settings.addAll(List.of("leaf.snowflake.mode=zk_recycle",
                "leaf.snowflake.zk.address=" + zookeeper.getConnectString()));
        try (ConfigurableApplicationContext application = start(settings);
                CuratorFramework zk = connect()) {
            assertThat(application.getBean(WorkerIdRegistry.class)).isInstanceOf(ZkRecycleWorkerIdRegistry.class);
            assertThat(application.getBeansOfType(RecycleSweeper.class)).hasSize(1);
            int workerId = issueAndCheck(application);
            ZkPaths paths = new ZkPaths(name);
            assertThat(zk.getChildren().forPath(paths.inUse())).containsExactly(Integer.toString(workerId));
            assertThat(zk.checkExists().forPath(paths.notInUse(workerId))).isNull();
        }
    }

    @Test
    void mysqlModeHoldsTheWorkerIdOfThisInstancesRow() throws Exception {
        TestDatabase database = TestDatabase.get();
        List<String> settings = settings(MYSQL_PORT);
        settings.add("leaf.snowflake.mode=mysql");
        settings.addAll(LeafApplications.jdbcSettings(database));
        try (ConfigurableApplicationContext application = start(settings)) {
            assertThat(application.getBean(WorkerIdRegistry.class)).isInstanceOf(MysqlWorkerIdRegistry.class);
            int workerId = issueAndCheck(application);
            // worker id = row id - 1 (sql/leaf_workerid_alloc.sql)
            assertThat(rowId(database, "127.0.0.1:" + MYSQL_PORT) - 1).isEqualTo(workerId);
        }
    }

    /**
     * On the machine's Redis (spring.data.redis.* unset: 127.0.0.1:6379), under this test's own
     * leaf.name, so its own keys. The pool is marked open for longer than a lease, as a pool in use
     * is: a new one makes its first start wait a lease (RedisWorkerIdRegistry says why), which the
     * registry's own tests cover.
     */
    @Test
    void redisModeHoldsAnIdLeasedInRedis() throws Exception {
        String prefix = RedisWorkerSettings.defaultKeyPrefix(name);
        LettuceConnectionFactory redis = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 6379));
        redis.afterPropertiesSet();
        redis.start();
        try {
            StringRedisTemplate template = new StringRedisTemplate(redis);
            String runId = template.execute((RedisCallback<String>) connection ->
                    String.valueOf(connection.serverCommands().info("server").getProperty("run_id")));
            template.opsForHash().putAll(prefix + "pool", Map.of("run", runId,
                    "since", Long.toString(System.currentTimeMillis() - Duration.ofMinutes(1).toMillis())));
            List<String> settings = settings(19514);
            settings.add("leaf.snowflake.mode=redis");
            settings.add("spring.data.redis.timeout=500ms"); // as the server sets it
            try {
                int workerId;
                try (ConfigurableApplicationContext application = start(settings)) {
                    assertThat(application.getBean(WorkerIdRegistry.class)).isInstanceOf(RedisWorkerIdRegistry.class);
                    workerId = issueAndCheck(application);
                    // Opening a connection waits the connect timeout (5 s unset), each command 500 ms.
                    LettuceConnectionFactory factory = application.getBean(LettuceConnectionFactory.class);
                    assertThat(factory.getClientConfiguration().getCommandTimeout()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(factory.getClientConfiguration().getClientOptions().orElseThrow().getTimeoutOptions()
                            .isTimeoutCommands()).isTrue();
                    // The lease is this process's: its address and a token of its own.
                    assertThat(template.opsForValue().get(prefix + "worker:" + workerId))
                            .startsWith("127.0.0.1:19514/");
                    assertThat(template.opsForValue().get(prefix + "instance:127.0.0.1:19514"))
                            .isEqualTo(Integer.toString(workerId));
                }
                // A graceful stop released the lease before Spring Boot stopped the Redis connection factory.
                assertThat(template.opsForValue().get(prefix + "worker:" + workerId)).as("the lease after the stop")
                        .isNull();
                assertThat(template.opsForValue().get(prefix + "reserved:" + workerId)).isNotNull();
            } finally {
                template.delete(template.keys(prefix + "*"));
            }
        } finally {
            redis.destroy();
        }
    }

    /** Issues from several threads, checks the IDs, and returns the worker id they carry. */
    private static int issueAndCheck(ConfigurableApplicationContext application) throws Exception {
        WorkerIdHolder holder = application.getBean(WorkerIdHolder.class);
        WorkerLease lease = holder.lease();
        assertThat(lease.covers(System.currentTimeMillis())).as("lease %s covers now", lease).isTrue();
        SnowflakeGenerator generator = application.getBean(SnowflakeGenerator.class);
        SnowflakeLayout layout = application.getBean(SnowflakeLayout.class);

        long[][] ids = ConcurrentIds.take(THREADS, IDS_PER_THREAD, generator::nextId);

        long[] all = ConcurrentIds.assertNoDuplicate(ids);
        assertThat(all).hasSize(THREADS * IDS_PER_THREAD);
        ConcurrentIds.assertIncreasingPerThread(ids);
        assertThat(Arrays.stream(all).map(id -> layout.decode(id).workerId()).distinct().toArray())
                .containsExactly(lease.workerId());
        assertThat(holder.lease().workerId()).isEqualTo(lease.workerId());
        return lease.workerId();
    }

    /** Segment mode off: with the mysql mode, the database is there for leaf_workerid_alloc alone. */
    private List<String> settings(int port) {
        List<String> settings = LeafApplications.baseSettings(name, dataDir, port);
        settings.add("leaf.segment.enable=false");
        return settings;
    }

    private static ConfigurableApplicationContext start(List<String> settings) {
        return LeafApplications.start(SnowflakeApplication.class, settings);
    }

    private CuratorFramework connect() throws InterruptedException {
        CuratorFramework zk = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), new RetryOneTime(100));
        zk.start();
        assertThat(zk.blockUntilConnected(10, TimeUnit.SECONDS)).as("connected to the test ZooKeeper").isTrue();
        return zk;
    }

    private static long rowId(TestDatabase database, String ipPort) throws Exception {
        try (Connection connection = database.connect();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT id FROM leaf_workerid_alloc WHERE ip_port = ?")) {
            select.setString(1, ipPort);
            try (ResultSet rows = select.executeQuery()) {
                assertThat(rows.next()).as("a row for %s", ipPort).isTrue();
                return rows.getLong(1);
            }
        }
    }
}
