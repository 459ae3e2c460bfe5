package org.leafid.redis.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.SnowflakeId;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservingWorkerIdHolder;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.redis.TestRedis;
import org.leafid.testing.RedisServerProcess;
import org.leafid.testing.SnowflakeIssuer;
import org.springframework.data.redis.connection.RedisConnection;

/**
 * Redis loses every key while a generator issues (FLUSHALL, or a restart without persistence, on
 * a redis-server of the test's own), and a second instance takes the id the first held: the first
 * stops within its reservation horizon, the second issues only a lease after the loss, and of
 * every ID both issued none repeats. Real time, with a short lease and report interval.
 */
@Tag("full-fault-suite") // a fault scenario: run by ./mvnw -B verify -Pfault-suite
class RedisWorkerLeaseLossTest {

    private static final Duration LEASE = Duration.ofMillis(2_000);
    private static final Duration REPORT_INTERVAL = Duration.ofMillis(200);
    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.leafDefault();

    @TempDir
    Path dataDir;
    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    @Test
    void flushAllUnderLoadStopsTheHolderAndTheNewHolderWaitsALease() throws Exception {
        RedisServerProcess server = RedisServerProcess.start();
        resources.add(server);
        TestRedis admin = connection(server);
        lossUnderLoad(server, () -> admin.template().execute((RedisConnection connection) -> {
            connection.serverCommands().flushAll();
            return null;
        }));
    }

    @Test
    void redisRestartedWithoutPersistenceUnderLoadRepeatsNoId() throws Exception {
        RedisServerProcess server = RedisServerProcess.start();
        resources.add(server);
        lossUnderLoad(server, () -> {
            server.kill();
            server.restart();
        });
    }

    private interface Loss {
        void happen() throws Exception;
    }

    private void lossUnderLoad(RedisServerProcess server, Loss loss) throws Exception {
        ReservingWorkerIdHolder first = holder(server, 0);
        first.start(); // a new pool: waits a lease first
        int workerId = first.workerId();
        SnowflakeIssuer before = new SnowflakeIssuer(LAYOUT, first);
        resources.add(before);
        await().atMost(Duration.ofSeconds(5)).until(() -> before.issued().size() > 10_000);

        long lostAt = System.currentTimeMillis();
        loss.happen();
        ReservingWorkerIdHolder second = holder(server, 1);
        second.start();
        long secondStartedAt = System.currentTimeMillis();
        SnowflakeIssuer after = new SnowflakeIssuer(LAYOUT, second);
        resources.add(after);
        // The first registers again once it finds its lease gone, and issues with another id.
        await().atMost(Duration.ofSeconds(10)).until(() -> first.workerId() >= 0 && first.workerId() != workerId);
        int countAtReturn = before.issued().size();
        await().atMost(Duration.ofSeconds(10)).until(() -> before.issued().size() > countAtReturn + 10_000
                && after.issued().size() > 10_000);
        before.close();
        after.close();

        assertThat(second.workerId()).as("the id the first held, free after the loss").isEqualTo(workerId);
        assertThat(secondStartedAt - lostAt).as("the new holder waited a lease").isGreaterThanOrEqualTo(
                LEASE.toMillis());
        long lastOfFirst = before.issued().stream().map(LAYOUT::decode).filter(id -> id.workerId() == workerId)
                .mapToLong(SnowflakeId::timestampMillis).max().orElseThrow();
        long firstOfSecond = after.issued().stream().map(LAYOUT::decode).mapToLong(SnowflakeId::timestampMillis).min()
                .orElseThrow();
        assertThat(lastOfFirst).as("the first stopped within its reservation horizon")
                .isLessThan(lostAt + 2 * REPORT_INTERVAL.toMillis() + 500);
        assertThat(firstOfSecond).as("the second issued a lease after the loss")
                .isGreaterThanOrEqualTo(lostAt + LEASE.toMillis()).isGreaterThan(lastOfFirst);
        Set<Long> distinct = new HashSet<>(before.issued());
        distinct.addAll(after.issued());
        assertThat(distinct).as("no ID repeated").hasSize(before.issued().size() + after.issued().size());
    }

    private ReservingWorkerIdHolder holder(RedisServerProcess server, int instance) {
        InstanceAddress address = new InstanceAddress("10.6.0." + instance, 8080);
        RedisWorkerIdRegistry registry = new RedisWorkerIdRegistry(connection(server).template(),
                new RedisWorkerSettings(RedisWorkerSettings.defaultKeyPrefix("loss"), LEASE, 1023), address,
                new WorkerCacheFiles(dataDir.resolve("instance-" + instance), "loss", 8080).registry(),
                InstantSource.system(), Sleeper.system());
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(registry, InstantSource.system(),
                Sleeper.system(), REPORT_INTERVAL, Duration.ofSeconds(5));
        resources.add(holder);
        return holder;
    }

    private TestRedis connection(RedisServerProcess server) {
        TestRedis redis = new TestRedis(server.port());
        resources.add(redis);
        return redis;
    }
}
