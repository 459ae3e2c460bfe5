package org.leafid.bench;

import com.alibaba.druid.pool.DruidDataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.FloorSegmentStore;
import org.leafid.core.segment.MultiStoreSegmentStore;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.jdbc.stores.StoreFleet;
import org.leafid.jdbc.stores.StoreState;
import org.leafid.jdbc.stores.StripedLeafAllocStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The time of one segment block reservation, sampled for its percentiles: one store
 * ({@code LeafAllocRepository} on the local MariaDB, as {@code leaf.jdbc.url}) beside three stores
 * ({@code leaf.jdbc.stores}: the local MariaDB, PostgreSQL and a second MariaDB database), where the
 * block comes from the first store through {@link MultiStoreSegmentStore} (its pool bounded as the server bounds it) and the striped
 * reservation. Run from the repository's root, once in each order: the second trial of a run is the
 * slower one, whichever it is (the database still cleaning up after the first), so a figure is the pair.
 *
 * <pre>java -jar leaf-bench/target/benchmarks.jar SeveralStoresReservationBenchmark -p stores=one,three -f 3 -wi 2 -w 2s -i 5 -r 2s
 *java -jar leaf-bench/target/benchmarks.jar SeveralStoresReservationBenchmark -p stores=three,one -f 3 -wi 2 -w 2s -i 5 -r 2s</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SeveralStoresReservationBenchmark {

    static final String TAG = "bench-stores";
    /** {@code leaf.jdbc.store-timeout}'s default. */
    static final Duration STORE_TIMEOUT = Duration.ofMillis(500);

    @Param({"one", "three"})
    public String stores;

    private final List<DruidDataSource> pools = new ArrayList<>();
    private FloorSegmentStore store;
    private MultiStoreSegmentStore multi;
    private long floor;

    @Setup(Level.Trial)
    public void open() throws Exception {
        List<String> kinds = stores.equals("one") ? List.of("mariadb") : List.of("mariadb", "postgresql", "mariadb");
        List<SqlSessionFactory> sessions = new ArrayList<>();
        for (int k = 0; k < kinds.size(); k++) {
            String name = stores.equals("one") ? "leaf_bench_one" : "leaf_bench_s" + k;
            // Three stores' pools as the server makes them: each waits at most leaf.jdbc.store-timeout.
            DruidDataSource pool = BlockReservationBenchmark.openDatabase(kinds.get(k), name,
                    stores.equals("one") ? 0 : (int) STORE_TIMEOUT.toMillis());
            pools.add(pool);
            try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
                statement.executeUpdate("DELETE FROM leaf_alloc");
                statement.executeUpdate("DELETE FROM leaf_high_water");
                statement.executeUpdate("INSERT INTO leaf_alloc(biz_tag, max_id, step, description) VALUES ('"
                        + TAG + "', 1, 1000, 'SeveralStoresReservationBenchmark')");
            }
            sessions.add(LeafSqlSessions.create(pool));
        }
        if (stores.equals("one")) {
            LeafAllocRepository one = new LeafAllocRepository(sessions.get(0));
            store = new FloorSegmentStore() {
                @Override
                public AllocRow reserveFrom(String tag, long requestedStep, long from) {
                    return one.reserve(tag, requestedStep);
                }

                @Override
                public List<String> tags() {
                    return one.tags();
                }
            };
            return;
        }
        List<StoreFleet.Member> members = new ArrayList<>();
        for (int k = 0; k < sessions.size(); k++) {
            members.add(new StoreFleet.Member(sessions.get(k), k, StoreState.MEMBER, pools.get(k).getUrl()));
        }
        StoreFleet fleet = new StoreFleet(members, 1_000_000);
        fleet.checkAtStart();
        List<MultiStoreSegmentStore.Store> named = new ArrayList<>();
        for (int k = 0; k < sessions.size(); k++) {
            LeafAllocRepository repository = new LeafAllocRepository(sessions.get(k), Sleeper.system(),
                    new StoreIdentityGuard(sessions.get(k), StoreIdentityGuard.DEFAULT_SKIP_BLOCKS));
            named.add(new MultiStoreSegmentStore.Store("stores[" + k + "]", pools.get(k).getUrl(),
                    new StripedLeafAllocStore(repository, k, fleet, Sleeper.system())));
        }
        multi = new MultiStoreSegmentStore(named, STORE_TIMEOUT, MultiStoreSegmentStore.Bound.STORE,
                Duration.ofSeconds(1), Duration.ofSeconds(10), InstantSource.system());
        store = multi;
    }

    @TearDown(Level.Trial)
    public void close() {
        if (multi != null) {
            multi.close();
        }
        pools.forEach(DruidDataSource::close);
    }

    /** One block, above the last one's end, as a generator asks. */
    @Benchmark
    public AllocRow reserve() {
        AllocRow row = store.reserveFrom(TAG, 1, floor);
        floor = row.maxId();
        return row;
    }
}
