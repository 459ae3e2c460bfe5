package org.leafid.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.testing.jdbc.TestDatabase;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two servers on one PostgreSQL database, with every mode on it (segment tags, a shard-mode app, and
 * snowflake worker ids in the {@code mysql} mode, which keeps its name on PostgreSQL), issue at once
 * through HTTP: no ID of a kind appears twice, and the two servers hold different worker ids. Small
 * steps make the servers reserve blocks from the same rows all the time.
 */
class PostgresServersTest {

    private static final int APP = 5;
    private static final long RUN_MILLIS = 2_500;

    private final TestDatabase database = TestDatabase.postgres().derived("servers");
    private final List<ConfigurableApplicationContext> servers = new ArrayList<>();

    @TempDir
    Path dataDir;

    @AfterEach
    void stopServers() {
        servers.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void twoServersOnOnePostgresDatabaseIssueEveryKindOfIdWithoutARepeat() throws Exception {
        database.forgetApps(APP);
        for (int shard = 0; shard < 64; shard++) {
            database.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, max_limit_id) "
                    + "VALUES (?, 'pg-servers', 0, ?, 20, 0)", APP, shard);
        }
        String tag = database.newTag("pg-servers", 1, 50);
        List<Http> clients = List.of(start(0), start(1));

        Set<Long> segment = ConcurrentHashMap.newKeySet();
        Set<Long> shard = ConcurrentHashMap.newKeySet();
        Set<Long> snowflake = ConcurrentHashMap.newKeySet();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Http http = clients.get(t % 2);
                String gatePass = "user-" + t;
                running.add(threads.submit(() -> {
                    go.await();
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RUN_MILLIS);
                    while (System.nanoTime() < end) {
                        addNew(segment, http.getId("/api/segment/get/" + tag), "segment");
                        addNew(shard, http.getId("/api/shard/get/" + APP), "shard");
                        addNew(shard, http.getId("/api/shard/get/" + APP + "?gatePass=" + gatePass), "shard");
                        addNew(snowflake, http.getId("/api/snowflake/get/pg"), "snowflake");
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : running) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }

        assertThat(segment).hasSizeGreaterThan(100);
        assertThat(shard).hasSizeGreaterThan(100);
        assertThat(snowflake).hasSizeGreaterThan(100);
        SnowflakeLayout layout = servers.get(0).getBean(SnowflakeLayout.class);
        assertThat(snowflake.stream().map(id -> layout.decode(id).workerId()).distinct().count())
                .as("worker ids of the two servers").isEqualTo(2);
        assertThat(database.number("SELECT COUNT(*) FROM leaf_high_water WHERE name = ?", "leaf_alloc:" + tag))
                .isEqualTo(1);
        database.deleteTag(tag);
        database.forgetApps(APP);
    }

    private static void addNew(Set<Long> seen, long id, String kind) {
        if (!seen.add(id)) {
            throw new AssertionError(kind + " ID " + id + " issued twice");
        }
    }

    private Http start(int index) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0",
                "--leaf.data-dir=" + dataDir.resolve("server-" + index),
                "--leaf.jdbc.url=" + database.url(),
                "--leaf.jdbc.username=" + database.user(),
                "--leaf.jdbc.password=" + database.password(),
                "--leaf.shard.enable=true",
                "--leaf.snowflake.mode=mysql",
                "--leaf.snowflake.ip=127.0.0.1",
                "--leaf.snowflake.port=" + (19300 + index)));
        ConfigurableApplicationContext server = new SpringApplicationBuilder(LeafServerApplication.class)
                .run(arguments.toArray(String[]::new));
        servers.add(server);
        return new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }
}
