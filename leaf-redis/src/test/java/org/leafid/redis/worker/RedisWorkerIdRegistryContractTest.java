package org.leafid.redis.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.testing.RedisServerProcess;
import org.leafid.testing.WorkerIdRegistryOutageContractTest;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.WorkerIdRegistry.Registration;
import org.leafid.redis.TestRedis;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The worker-id registry contract for {@code redis} on a real redis-server of the test's own
 * (killed and started again for outages), each instance with its own connection and cache file.
 */
class RedisWorkerIdRegistryContractTest extends WorkerIdRegistryOutageContractTest {

    private static final Duration LEASE = Duration.ofSeconds(16);
    /** Not one of the contract's instances: it opens the pool. */
    private static final int OPENER = 99;

    @TempDir
    Path dataDir;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private static final String PREFIX = RedisWorkerSettings.defaultKeyPrefix("test");
    private RedisServerProcess server;
    private TestRedis admin;

    RedisWorkerIdRegistryContractTest() {
        super(Restart.KEEPS_ID);
    }

    /**
     * The contract is about a pool in use: a brand-new one (Redis cannot tell it from an emptied
     * one) makes its first taker wait a lease, which Redis measures on its own clock and the taker
     * sleeps on the fake one. Then the marker is dated a lease back in Redis's time, as it is in a
     * pool that has been whole for longer, and fresh ids are issued from at once.
     */
    @BeforeEach
    void openPool() throws Exception {
        server = RedisServerProcess.start();
        long before = clock.millis();
        Registration opening = registry(OPENER).register();
        assertThat(clock.millis() - before).isGreaterThanOrEqualTo(LEASE.toMillis());
        assertThat(opening.recordedReservationMillis()).isEqualTo(before + LEASE.toMillis());
        opening.sink().release(opening.workerId(), opening.recordedReservationMillis());
        clock.advance(1);
        admin = new TestRedis(server.port());
        resources.add(admin);
        admin.template().opsForHash().put(PREFIX + "pool", "since", "0");
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        server.close();
    }

    @Override
    protected WorkerIdRegistry registry(int instance) {
        TestRedis redis = new TestRedis(server.port());
        resources.add(redis);
        InstanceAddress address = address(instance);
        return new RedisWorkerIdRegistry(redis.template(),
                new RedisWorkerSettings(PREFIX, LEASE, 1023), address,
                new WorkerCacheFiles(dataDir.resolve("instance-" + instance), "test", 8080).registry(), clock, clock);
    }

    /** The leases of the instance's processes run out: deleted, as PX would after {@link #LEASE}. */
    @Override
    protected void abandon(int instance) {
        StringRedisTemplate redis = admin.template();
        for (String lease : redis.keys(PREFIX + "worker:*")) {
            String owner = redis.opsForValue().get(lease);
            if (owner != null && owner.startsWith(address(instance).key() + "/")) {
                redis.delete(lease);
            }
        }
    }

    private static InstanceAddress address(int instance) {
        return new InstanceAddress("10.5.0." + instance, 8080);
    }

    @Override
    protected void cutBackend() {
        try {
            server.kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing redis-server", e);
        }
    }

    @Override
    protected void restoreBackend() {
        try {
            server.restart();
        } catch (Exception e) {
            throw new IllegalStateException("could not restart redis-server", e);
        }
    }

    @Override
    protected List<String> outageErrorNames(int instance) {
        return List.of("spring.data.redis", "leaf.snowflake.mode=redis needs it", "Start Redis");
    }
}
