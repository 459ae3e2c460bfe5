package org.leafid.redis.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.testing.FakeClock;
import org.leafid.testing.RedisServerProcess;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry.Registration;
import org.leafid.redis.TestRedis;
import org.springframework.data.redis.connection.RedisConnection;

/**
 * What the {@code redis} mode's leases belong to and whose clock judges the pool marker, on a
 * redis-server of the test's own: a lease is one process's (its address plus a token), so a
 * second process of an address never takes it over, and the address's sticky id comes back
 * only once released; the wait after a loss is measured on Redis's clock, so a taker's clock
 * an hour ahead or a minute behind neither blocks correct takers nor shortens their wait.
 */
class RedisWorkerIdentityTest {

    private static final Duration LEASE = Duration.ofSeconds(16);
    private static final String PREFIX = RedisWorkerSettings.defaultKeyPrefix("identity");
    private static final InstanceAddress SHARED = new InstanceAddress("172.17.0.2", 8080);

    @TempDir
    Path dataDir;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private RedisServerProcess server;
    private TestRedis admin;
    private int processes;

    @BeforeEach
    void startRedis() throws Exception {
        server = RedisServerProcess.start();
        admin = connection();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        server.close();
    }

    @Test
    void aSecondProcessOfAnAddressTakesAnotherIdAndTheStickyIdComesBackAfterTheRelease() {
        FakeClock clock = new FakeClock(System.currentTimeMillis());
        Registration first = registry(SHARED, clock).register(); // a new pool: waits a lease on the fake clock
        Registration second = registry(SHARED, clock).register();

        assertThat(second.workerId()).isNotEqualTo(first.workerId());
        assertThat(admin.template().opsForValue().get(PREFIX + "instance:" + SHARED.key()))
                .as("the sticky id stays the holder's").isEqualTo(Integer.toString(first.workerId()));
        // Both renew their own leases; neither renewal touches the other's.
        first.sink().record(first.workerId(), clock.millis() + 6_000);
        second.sink().record(second.workerId(), clock.millis() + 6_000);
        assertThat(admin.template().opsForValue().get(PREFIX + "worker:" + first.workerId()))
                .startsWith(SHARED.key() + "/")
                .isNotEqualTo(admin.template().opsForValue().get(PREFIX + "worker:" + second.workerId()));

        first.sink().release(first.workerId(), clock.millis());
        Registration restarted = registry(SHARED, clock).register();
        assertThat(restarted.workerId()).as("the sticky id, free again").isEqualTo(first.workerId());
        second.sink().record(second.workerId(), clock.millis() + 6_000); // still the second's own
    }

    @Test
    void aTakerWhoseClockIsAnHourAheadDoesNotBlockCorrectTakers() {
        long now = System.currentTimeMillis();
        FakeClock ahead = new FakeClock(now + Duration.ofHours(1).toMillis());
        FakeClock correct = new FakeClock(now);

        long aheadBefore = ahead.millis();
        registry(new InstanceAddress("10.7.0.1", 8080), ahead).register(); // opens the pool: waits a lease
        assertThat(ahead.millis() - aheadBefore).isEqualTo(LEASE.toMillis());

        long before = correct.millis();
        Registration registration = registry(new InstanceAddress("10.7.0.2", 8080), correct).register();
        // What is left of the lease since the marker (on Redis's clock), not an hour more, nor a refusal.
        assertThat(correct.millis() - before).isLessThanOrEqualTo(LEASE.toMillis());
        assertThat(registration.recordedReservationMillis()).isLessThan(now + 2 * LEASE.toMillis());
    }

    @Test
    void aTakerWhoseClockIsAMinuteBehindStillMakesOthersWaitTheLeaseAfterAFlushAll() {
        long now = System.currentTimeMillis();
        FakeClock behind = new FakeClock(now - 60_000);
        FakeClock correct = new FakeClock(now);
        registry(new InstanceAddress("10.7.0.3", 8080), correct).register();
        admin.template().execute((RedisConnection connection) -> {
            connection.serverCommands().flushAll();
            return null;
        });

        long behindBefore = behind.millis();
        registry(new InstanceAddress("10.7.0.4", 8080), behind).register(); // writes the marker anew
        assertThat(behind.millis() - behindBefore).isEqualTo(LEASE.toMillis());

        long before = correct.millis();
        registry(new InstanceAddress("10.7.0.5", 8080), correct).register();
        // Almost the whole lease is left since the marker: real time barely moved.
        assertThat(correct.millis() - before).isGreaterThan(LEASE.toMillis() - 5_000)
                .isLessThanOrEqualTo(LEASE.toMillis());
    }

    private RedisWorkerIdRegistry registry(InstanceAddress address, FakeClock clock) {
        int process = processes++;
        return new RedisWorkerIdRegistry(connection().template(), new RedisWorkerSettings(PREFIX, LEASE, 1023),
                address, new WorkerCacheFiles(dataDir.resolve("process-" + process), "identity", 8080).registry(),
                clock, clock);
    }

    private TestRedis connection() {
        TestRedis redis = new TestRedis(server.port());
        resources.add(redis);
        return redis;
    }
}
