package org.leafid.jdbc.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.druid.pool.DruidDataSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardBlock;
import org.leafid.core.shard.ShardStoreException;
import org.leafid.jdbc.session.LeafSqlSessions;

/**
 * {@link IdAllocRepository} on the real MySQL-protocol database where the contract
 * ({@link IdAllocRepositoryMariaDbContractTest}) does not reach: a database as the Redis-queue
 * service leaves it, two instances with pools of their own, and an unreachable database.
 */
class IdAllocRepositoryTest {

    private final List<DruidDataSource> pools = new ArrayList<>();

    @AfterEach
    void closePools() {
        pools.forEach(DruidDataSource::close);
    }

    @Test
    void databaseLeftByTheirServiceContinuesAfterItsMaxIdOnEveryShard() throws Exception {
        DruidDataSource pool = pool();
        // As their service leaves an app: 64 rows of their DDL, each advanced five blocks of 1000,
        // written with only the columns their admin sets (the rest are the DDL's defaults).
        for (int shard = 0; shard < 64; shard++) {
            ShardDatabases.update(pool, "INSERT INTO id_alloc(app_id, app_name, shard_id, max_id, max_limit_id) "
                    + "VALUES (?, ?, ?, ?, ?)", 3, "their-app", shard, 5000, 4_294_967_295L);
        }
        IdAllocRepository repository = new IdAllocRepository(LeafSqlSessions.create(pool));

        assertThat(repository.apps()).containsExactly(
                new ShardApp(3, "their-app", 1000, 4_294_967_295L, IntStream.range(0, 64).boxed().toList()));
        for (int shard = 0; shard < 64; shard++) {
            assertThat(repository.reserve(3, shard, 1)).isEqualTo(new ShardBlock(3, shard, 5001, 6000, 1000));
        }
    }

    @Test
    void twoInstancesReservingConcurrentlyNeverOverlap() throws Exception {
        DruidDataSource setup = pool();
        // Two repositories with pools of their own, as two server instances have (opened before the
        // row is inserted: opening a pool here empties the tables).
        List<IdAllocRepository> instances = List.of(
                new IdAllocRepository(LeafSqlSessions.create(pool())),
                new IdAllocRepository(LeafSqlSessions.create(pool())));
        ShardDatabases.insertRow(setup, 4, "two-instances", 11, 0, 7, 0);
        int threadsPerInstance = 4;
        int perThread = 100;
        ExecutorService clients = Executors.newFixedThreadPool(2 * threadsPerInstance);
        CountDownLatch start = new CountDownLatch(1);
        List<ShardBlock> blocks = new ArrayList<>();
        try {
            List<Future<List<ShardBlock>>> results = new ArrayList<>();
            for (int t = 0; t < 2 * threadsPerInstance; t++) {
                IdAllocRepository instance = instances.get(t % 2);
                results.add(clients.submit(() -> {
                    start.await();
                    List<ShardBlock> mine = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        mine.add(instance.reserve(4, 11, 1));
                    }
                    return mine;
                }));
            }
            start.countDown();
            for (Future<List<ShardBlock>> result : results) {
                blocks.addAll(result.get(60, TimeUnit.SECONDS));
            }
        } finally {
            clients.shutdownNow();
        }

        Set<Long> firsts = new HashSet<>();
        blocks.forEach(block -> firsts.add(block.firstIndex()));
        int reservations = 2 * threadsPerInstance * perThread;
        // Blocks of 7 starting at 1, 8, 15, ...: each start once means no overlap and no gap.
        assertThat(firsts).hasSize(reservations);
        assertThat(firsts).allSatisfy(first -> assertThat((first - 1) % 7).isZero());
        assertThat(ShardDatabases.maxId(setup, 4, 11)).isEqualTo(7L * reservations);
    }

    @Test
    void unreachableDatabaseIsExplainedWithoutThePassword() {
        DruidDataSource unreachable = new DruidDataSource();
        unreachable.setUrl("jdbc:mysql://127.0.0.1:1/leaf?password=secret&connectTimeout=500");
        unreachable.setUsername("root");
        unreachable.setMaxWait(1_000);
        unreachable.setConnectionErrorRetryAttempts(0);
        unreachable.setBreakAfterAcquireFailure(true);
        pools.add(unreachable);
        IdAllocRepository repository = new IdAllocRepository(LeafSqlSessions.create(unreachable));

        assertThatThrownBy(() -> repository.reserve(1, 0, 1))
                .isInstanceOf(ShardStoreException.class)
                .hasMessageContaining("app 1 shard 0")
                .hasMessageContaining("127.0.0.1:1")
                .hasMessageContaining("check leaf.jdbc.url")
                .hasMessageNotContaining("secret");
    }

    private DruidDataSource pool() throws Exception {
        DruidDataSource pool = ShardDatabases.mariaDb();
        pools.add(pool);
        return pool;
    }
}
