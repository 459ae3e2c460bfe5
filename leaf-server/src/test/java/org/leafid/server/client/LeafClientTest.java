package org.leafid.server.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.leafid.client.IdSource;
import org.leafid.client.LeafClient;
import org.leafid.client.LeafRequestException;
import org.leafid.client.LeafUnavailableException;
import org.leafid.core.shard.ShardId;
import org.leafid.jdbc.testing.TestDatabase;
import org.leafid.server.LeafServerApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * leaf-client against two real servers on one MariaDB database (a database of this class's own),
 * worker ids 1 and 2: two embedded-default servers would each have an H2 file and worker id 0, and
 * issue the same IDs. No HTTP is mocked.
 */
class LeafClientTest {

    private static final TestDatabase DATABASE = TestDatabase.get().derived("client");
    private static final String TAG = "client-order";

    private final List<ConfigurableApplicationContext> servers = new ArrayList<>();

    @AfterEach
    void stopServers() {
        servers.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void eightThreadsTakeMillionsOfIdsThroughTwoServersWithoutADuplicate() throws Exception {
        try (LeafClient leaf = client(startServers(), Duration.ofSeconds(10))) {
            IdSource segment = leaf.segment(TAG);
            IdSource snowflake = leaf.snowflake();
            long[] segmentIds = take(8, 250_000, segment::nextId, null);
            long[] snowflakeIds = take(8, 250_000, snowflake::nextId, null);
            assertThat(Arrays.stream(segmentIds).distinct().count()).isEqualTo(2_000_000);
            assertThat(Arrays.stream(snowflakeIds).distinct().count()).isEqualTo(2_000_000);
            long alice = leaf.shard(1).nextId("alice@example.com");
            assertThat(ShardId.decode(alice).shardId()).isEqualTo(Math.abs("alice@example.com".hashCode()) % 64);
        }
    }

    @Test
    void aServerStoppedUnderLoadCostsTheApplicationNothing() throws Exception {
        List<String> urls = startServers();
        try (LeafClient leaf = client(urls, Duration.ofSeconds(10))) {
            IdSource segment = leaf.segment(TAG);
            AtomicBoolean stopped = new AtomicBoolean();
            long[] ids = take(4, 150_000, segment::nextId, () -> {
                if (stopped.compareAndSet(false, true)) {
                    servers.get(0).close();
                }
            });
            assertThat(stopped).isTrue();
            assertThat(Arrays.stream(ids).distinct().count()).isEqualTo(600_000);
        }
    }

    @Test
    void bothServersDownServesTheBufferThenFailsAfterTheBound() {
        List<String> urls = startServers();
        Duration bound = Duration.ofMillis(1500);
        try (LeafClient leaf = LeafClient.builder().servers(urls.toArray(String[]::new)).maxWait(bound)
                .maxBatch(1000).prefetchThreshold(0.99).build()) {
            IdSource segment = leaf.segment(TAG);
            long first = segment.nextId();
            servers.forEach(ConfigurableApplicationContext::close);
            // The rest of the batch in hand is served without a server.
            long previous = first;
            int served = 0;
            long started = System.nanoTime();
            try {
                for (;;) {
                    long id = segment.nextId();
                    assertThat(id).isGreaterThan(previous);
                    previous = id;
                    served++;
                }
            } catch (LeafUnavailableException e) {
                long waitedMillis = (System.nanoTime() - started) / 1_000_000;
                assertThat(served).as("buffered IDs served after the servers went").isPositive();
                assertThat(waitedMillis).isGreaterThanOrEqualTo(bound.toMillis());
                assertThat(e).hasMessageContaining("within 1500 ms");
            }
        }
    }

    @Test
    void aRefusedRequestIsATypedExceptionAtOnce() {
        try (LeafClient leaf = client(startServers(), Duration.ofSeconds(30))) {
            long started = System.nanoTime();
            assertThatThrownBy(() -> leaf.segment("no-such-tag").nextId())
                    .isInstanceOfSatisfying(LeafRequestException.class, e -> {
                        assertThat(e.status()).isEqualTo(404);
                        assertThat(e.type()).isEqualTo("unknown-tag");
                        assertThat(e.detail()).contains("no-such-tag");
                    });
            assertThatThrownBy(() -> leaf.shard(99).nextId())
                    .isInstanceOfSatisfying(LeafRequestException.class, e -> assertThat(e.type()).isEqualTo("unknown-app"));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
            assertThatThrownBy(() -> leaf.segment("bad tag")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private LeafClient client(List<String> urls, Duration maxWait) {
        return LeafClient.builder().servers(urls.toArray(String[]::new)).maxWait(maxWait).build();
    }

    /** Two servers on the database, worker ids 1 and 2, shard mode on; the tag at a fresh row. */
    private List<String> startServers() {
        DATABASE.update("DELETE FROM leaf_alloc WHERE biz_tag = ?", TAG);
        DATABASE.insertTag(TAG, 1, 1000);
        DATABASE.update("DELETE FROM id_alloc WHERE app_id = 1");
        for (int shard = 0; shard < 64; shard++) {
            DATABASE.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, max_limit_id) "
                    + "VALUES (1, 'client-test', 0, ?, 1000, 0)", shard);
        }
        List<String> urls = new ArrayList<>();
        for (int worker = 1; worker <= 2; worker++) {
            ConfigurableApplicationContext server = start(worker);
            servers.add(server);
            urls.add("http://127.0.0.1:" + server.getEnvironment().getRequiredProperty("local.server.port"));
        }
        return urls;
    }

    private static ConfigurableApplicationContext start(int workerId) {
        try {
            Path dataDir = Files.createTempDirectory("leaf-client-test");
            return new SpringApplicationBuilder(LeafServerApplication.class).run("--server.port=0",
                    "--server.address=127.0.0.1", "--leaf.jdbc.url=" + DATABASE.url(),
                    "--leaf.jdbc.username=" + DATABASE.user(), "--leaf.jdbc.password=" + DATABASE.password(),
                    "--leaf.data-dir=" + dataDir, "--leaf.snowflake.port=" + (18200 + workerId),
                    "--leaf.snowflake.local.worker-id=" + workerId, "--leaf.shard.enable=true",
                    "--leaf.name=client-test-" + workerId);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * {@code threads} × {@code each} IDs; each thread's must increase (the segment guarantee holds
     * for snowflake too within one worker, and across workers the check is done only by distinctness).
     * {@code midway} runs once when half the IDs are taken.
     */
    private static long[] take(int threads, int each, LongSupplier next, Runnable midway) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    long[] ids = new long[each];
                    for (int i = 0; i < each; i++) {
                        ids[i] = next.getAsLong();
                        if (midway != null && thread == 0 && i == each / 2) {
                            midway.run();
                        }
                    }
                    return ids;
                }));
            }
            long[] all = new long[threads * each];
            int at = 0;
            for (Future<long[]> result : results) {
                long[] ids = result.get(300, TimeUnit.SECONDS);
                System.arraycopy(ids, 0, all, at, ids.length);
                at += ids.length;
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }
}
