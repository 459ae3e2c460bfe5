package org.leafid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.testing.RedisServerProcess;
import org.leafid.server.fault.FullFaultSuite;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Two servers in {@code leaf.snowflake.mode=redis} on a redis-server of the test's own: different
 * worker ids, kept across a restart of both, and after a FLUSHALL under load not one ID repeated
 * among every ID either served.
 */
@FullFaultSuite
class RedisWorkerIdServerTest {

    /** The shortest lease the configuration accepts with this report interval (2 x 500 ms + 10 s). */
    private static final Duration LEASE = Duration.ofSeconds(11);
    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.leafDefault();

    @TempDir
    Path dataDir;
    private final List<ConfigurableApplicationContext> servers = new ArrayList<>();
    private RedisServerProcess redis;

    @AfterEach
    void stopAll() throws Exception {
        servers.forEach(ConfigurableApplicationContext::close);
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void twoServersKeepDifferentWorkerIdsAcrossARestartAndRepeatNoIdAfterAFlushAllUnderLoad() throws Exception {
        redis = RedisServerProcess.start();

        ConfigurableApplicationContext first = start(redis, 0);
        ConfigurableApplicationContext second = start(redis, 1);
        int firstId = workerId(first);
        int secondId = workerId(second);
        assertThat(firstId).isNotEqualTo(secondId);

        first.close();
        second.close();
        long restartedAt = System.currentTimeMillis();
        first = start(redis, 0);
        second = start(redis, 1);
        assertThat(System.currentTimeMillis() - restartedAt).as("a restart in a pool in use waits no lease")
                .isLessThan(LEASE.toMillis());
        assertThat(workerId(first)).as("sticky per ip:port").isEqualTo(firstId);
        assertThat(workerId(second)).isEqualTo(secondId);

        List<Http> clients = List.of(http(first), http(second));
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService load = Executors.newFixedThreadPool(clients.size());
        try {
            List<Future<List<Long>>> served = new ArrayList<>();
            for (Http client : clients) {
                served.add(load.submit(() -> issueWhile(client, running)));
            }
            Thread.sleep(500);
            StringRedisTemplate template = first.getBean(StringRedisTemplate.class);
            template.execute((RedisCallback<Void>) connection -> {
                connection.serverCommands().flushAll();
                return null;
            });
            long flushedAt = System.currentTimeMillis();
            // Both stop within their horizon, register again, wait a lease, and serve again.
            for (Http client : clients) {
                await().atMost(LEASE.multipliedBy(3)).pollInterval(Duration.ofMillis(200))
                        .until(() -> client.get("/api/snowflake/get/k").statusCode() == 200
                                && System.currentTimeMillis() > flushedAt + LEASE.toMillis());
            }
            Thread.sleep(500);
            running.set(false);
            List<Long> all = new ArrayList<>();
            for (Future<List<Long>> part : served) {
                all.addAll(part.get(30, TimeUnit.SECONDS));
            }
            Set<Long> distinct = new HashSet<>(all);
            assertThat(distinct).as("no ID served twice").hasSize(all.size());
            assertThat(all.stream().filter(id -> LAYOUT.decode(id).timestampMillis() >= flushedAt + LEASE.toMillis()))
                    .as("served again after the lease").isNotEmpty();
        } finally {
            running.set(false);
            load.shutdownNow();
        }
    }

    /** Every ID served while running; 503s (no lease known valid) are skipped. */
    private static List<Long> issueWhile(Http client, AtomicBoolean running) {
        List<Long> ids = new ArrayList<>();
        while (running.get()) {
            HttpResponse<String> response = client.get("/api/snowflake/get/k");
            if (response.statusCode() == 200) {
                ids.add(Long.parseLong(response.body().trim()));
            } else {
                assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
                assertThat(response.body()).contains("urn:leaf:problem:worker-id-unavailable");
            }
        }
        return ids;
    }

    private int workerId(ConfigurableApplicationContext server) {
        return LAYOUT.decode(http(server).getId("/api/snowflake/get/k")).workerId();
    }

    private static Http http(ConfigurableApplicationContext server) {
        return new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }

    private ConfigurableApplicationContext start(RedisServerProcess redis, int index) {
        ConfigurableApplicationContext server = new SpringApplicationBuilder(LeafServerApplication.class).run(
                "--server.port=0",
                "--leaf.name=redis-mode",
                "--leaf.data-dir=" + dataDir.resolve("instance-" + index),
                "--leaf.segment.enable=false",
                "--leaf.snowflake.mode=redis",
                "--leaf.snowflake.report-interval=500ms",
                "--leaf.snowflake.redis.lease=" + LEASE.toSeconds() + "s",
                "--spring.data.redis.port=" + redis.port(),
                "--leaf.snowflake.ip=127.0.0.1",
                "--leaf.snowflake.port=" + (19200 + index));
        servers.add(server);
        return server;
    }
}
