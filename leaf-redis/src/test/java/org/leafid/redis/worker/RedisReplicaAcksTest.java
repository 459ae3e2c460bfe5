package org.leafid.redis.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry.Registration;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.redis.TestRedis;
import org.leafid.testing.FakeClock;
import org.leafid.testing.RedisServerProcess;

/**
 * {@code leaf.snowflake.redis.replica-acks}: a take or renewal counts only once that many replicas
 * have it ({@code WAIT} on the connection that wrote it). A master no replica follows (an old
 * master frozen past Sentinel's {@code down-after}, which still answers its old clients) confirms
 * nothing; with a replica following, leases are taken and renewed as before. On redis-servers of
 * the test's own.
 */
class RedisReplicaAcksTest {

    private static final Duration LEASE = Duration.ofSeconds(16);
    private static final String PREFIX = RedisWorkerSettings.defaultKeyPrefix("acks");

    @TempDir
    Path dataDir;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private RedisServerProcess master;
    private final FakeClock clock = new FakeClock(System.currentTimeMillis());

    @BeforeEach
    void startRedis() throws Exception {
        master = RedisServerProcess.start();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        master.close();
    }

    @Test
    void aMasterWithoutAReplicaConfirmsNoTakeAndAReplicaMakesItCount() throws Exception {
        assertThatThrownBy(() -> registry(new InstanceAddress("10.8.0.1", 8080), 1).register())
                .isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("acknowledged by 0 replica(s)")
                .hasMessageContaining("leaf.snowflake.redis.replica-acks");

        RedisServerProcess replica = replica();
        resources.add(replica);
        Registration taken = registry(new InstanceAddress("10.8.0.2", 8080), 1).register();
        taken.sink().record(taken.workerId(), clock.millis() + 6_000);
        try (TestRedis onReplica = new TestRedis(replica.port())) {
            // WAIT returned only once the replica had the renewal.
            assertThat(onReplica.template().opsForValue().get(PREFIX + "reserved:" + taken.workerId()))
                    .isEqualTo(Long.toString(clock.millis() + 6_000));
        }
    }

    @Test
    void aRenewalNoReplicaAcknowledgedDoesNotCount() throws Exception {
        RedisServerProcess replica = replica();
        Registration taken = registry(new InstanceAddress("10.8.0.3", 8080), 1).register();
        replica.close(); // the master is cut off from its only replica

        assertThatThrownBy(() -> taken.sink().record(taken.workerId(), clock.millis() + 6_000))
                .isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("renewal of worker id " + taken.workerId());
    }

    @Test
    void withoutReplicaAcksNoWaitIsSent() {
        Registration taken = registry(new InstanceAddress("10.8.0.4", 8080), 0).register();
        taken.sink().record(taken.workerId(), clock.millis() + 6_000);
    }

    /** A replica of the master, in sync (RedisServerProcess waits for that, in a directory of its own). */
    private RedisServerProcess replica() throws Exception {
        return RedisServerProcess.startReplicaOf(master.port());
    }

    private RedisWorkerIdRegistry registry(InstanceAddress address, int replicaAcks) {
        TestRedis connection = new TestRedis(master.port());
        resources.add(connection);
        return new RedisWorkerIdRegistry(connection.template(), new RedisWorkerSettings(PREFIX, LEASE, 1023,
                replicaAcks, Duration.ofMillis(200)), address,
                new WorkerCacheFiles(dataDir.resolve(address.ip()), "acks", 8080).registry(), clock, clock);
    }
}
