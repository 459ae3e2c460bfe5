package org.leafid.jdbc.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.alibaba.druid.pool.DruidDataSource;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentSettings;
import org.leafid.core.segment.StepPolicy;
import org.leafid.testing.TcpProxy;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * {@link LeafAllocRepository} on the real MySQL-protocol database where the {@code SegmentStore}
 * contract ({@link LeafAllocRepositoryMariaDbContractTest}) does not reach: two instances with pools
 * and allocators of their own, and the database becoming unreachable. Reservations, tag listing and
 * concurrent reservations on one store are the contract's; the allocator over a store is leaf-core's
 * {@code SegmentAllocatorTest}.
 */
class LeafAllocRepositoryTest {

    private final TestDatabase database = TestDatabase.get();
    private final List<DruidDataSource> pools = new ArrayList<>();
    private final List<ExecutorService> executors = new ArrayList<>();

    @BeforeEach
    void checkDatabase() {
        assertThat(database.url()).isNotBlank();
    }

    @AfterEach
    void closeAll() {
        executors.forEach(ExecutorService::shutdownNow);
        pools.forEach(DruidDataSource::close);
    }

    @Test
    void twoInstancesReservingConcurrentlyNeverOverlap() throws Exception {
        String tag = database.newTag("two-instances", 1, 500);
        // Two stores with their own pools, as two server instances would have.
        SegmentAllocator first = allocator(new LeafAllocRepository(LeafSqlSessions.create(pool())));
        SegmentAllocator second = allocator(new LeafAllocRepository(LeafSqlSessions.create(pool())));
        first.refresh();
        second.refresh();
        int threadsPerInstance = 4;
        int idsPerThread = 25_000;
        ExecutorService clients = executor(2 * threadsPerInstance);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<long[]>> results = new ArrayList<>();
        for (int t = 0; t < 2 * threadsPerInstance; t++) {
            SegmentAllocator instance = t % 2 == 0 ? first : second;
            results.add(clients.submit(() -> {
                start.await();
                long[] ids = new long[idsPerThread];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = instance.nextId(tag);
                }
                return ids;
            }));
        }
        start.countDown();

        long[] all = new long[2 * threadsPerInstance * idsPerThread];
        int filled = 0;
        for (Future<long[]> result : results) {
            long[] ids = result.get(120, TimeUnit.SECONDS);
            System.arraycopy(ids, 0, all, filled, ids.length);
            filled += ids.length;
        }
        Arrays.sort(all);
        assertThat(all[0]).isPositive();
        for (int i = 1; i < all.length; i++) {
            assertThat(all[i]).as("duplicate at index %d", i).isGreaterThan(all[i - 1]);
        }
        // Every issued number lies below what the table has handed out.
        assertThat(all[all.length - 1]).isLessThan(database.maxId(tag));
    }

    @Test
    void unreachableDatabaseIsAStoreErrorWithinTheConnectTimeoutAndRecovers() throws Exception {
        String tag = database.newTag("outage", 1, 100);
        String[] target = database.hostAndPort();
        try (TcpProxy proxy = new TcpProxy(target[0], Integer.parseInt(target[1]))) {
            DruidDataSource pool = pool();
            pool.setUrl(database.urlThrough(proxy));
            pool.setMaxWait(1_000);
            pool.setConnectTimeout(1_000);
            pool.setBreakAfterAcquireFailure(false);
            LeafAllocRepository store = new LeafAllocRepository(LeafSqlSessions.create(pool));
            assertThat(store.reserve(tag, 1).maxId()).isEqualTo(101);

            proxy.cut();
            long started = System.nanoTime();
            assertThatThrownBy(() -> store.reserve(tag, 1)).isInstanceOf(SegmentStoreException.class);
            assertThatThrownBy(store::tags).isInstanceOf(SegmentStoreException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
            assertThat(database.maxId(tag)).isEqualTo(101);

            proxy.restore();
            // The pool replaces its broken connections in real time: a bounded wait.
            AllocRow afterOutage = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                    .ignoreException(SegmentStoreException.class).until(() -> store.reserve(tag, 1), row -> true);
            assertThat(afterOutage.maxId()).isEqualTo(201);
        }
    }

    private SegmentAllocator allocator(LeafAllocRepository store) {
        SegmentSettings settings = new SegmentSettings(new StepPolicy(100_000, StepPolicy.DEFAULT_TARGET),
                Duration.ofSeconds(5));
        return new SegmentAllocator(store, settings, InstantSource.system(), executor(2));
    }

    private DruidDataSource pool() {
        DruidDataSource pool = database.newPool();
        pools.add(pool);
        return pool;
    }

    private ExecutorService executor(int threads) {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        executors.add(executor);
        return executor;
    }
}
