package org.leafid.jdbc.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.druid.pool.DruidDataSource;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.MultiStoreSegmentStore;
import org.leafid.core.segment.SegmentIdGenerator;
import org.leafid.core.segment.StepPolicy;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * Two servers (each its own pools and view of the fleet) take IDs from a MariaDB and a PostgreSQL
 * store while a third store is added, then the PostgreSQL one retired, both by one server's
 * renumbering: every ID collected, none twice, each server's increasing, the other server following.
 */
class RenumberUnderLoadTest {

    private static final long WIDTH = 10_000;
    private static final String TAG = "fleet"; // the tag StoreFleetTest.fresh inserts

    private final List<DruidDataSource> pools = new ArrayList<>();
    private final List<MultiStoreSegmentStore> multis = new ArrayList<>();
    private final ExecutorService loader = Executors.newFixedThreadPool(2);

    @AfterEach
    void close() {
        multis.forEach(MultiStoreSegmentStore::close);
        pools.forEach(DruidDataSource::close);
        loader.shutdownNow();
    }

    private record Server(StoreFleet fleet, MultiStoreSegmentStore multi, SegmentIdGenerator generator) {}

    private Server server(List<TestDatabase> databases, StoreState... states) {
        List<StoreFleet.Member> members = new ArrayList<>();
        List<SqlSessionFactory> sessions = new ArrayList<>();
        for (int k = 0; k < databases.size(); k++) {
            DruidDataSource pool = databases.get(k).newPool();
            pools.add(pool);
            sessions.add(LeafSqlSessions.create(pool));
            members.add(new StoreFleet.Member(sessions.get(k), k, states[k], databases.get(k).url()));
        }
        StoreFleet fleet = new StoreFleet(members, WIDTH);
        fleet.checkAtStart();
        List<MultiStoreSegmentStore.Store> stores = new ArrayList<>();
        for (int k = 0; k < databases.size(); k++) {
            LeafAllocRepository repository = new LeafAllocRepository(sessions.get(k), Sleeper.system(),
                    new StoreIdentityGuard(sessions.get(k), StoreIdentityGuard.DEFAULT_SKIP_BLOCKS));
            stores.add(new MultiStoreSegmentStore.Store("stores[" + k + "]", databases.get(k).url(),
                    new StripedLeafAllocStore(repository, k, fleet, Sleeper.system())));
        }
        MultiStoreSegmentStore multi = new MultiStoreSegmentStore(stores, Duration.ofSeconds(2),
                Duration.ofMillis(200), Duration.ZERO, InstantSource.system());
        multis.add(multi);
        return new Server(fleet, multi, new SegmentIdGenerator(TAG, multi, new StepPolicy(500, Duration.ofMinutes(15)),
                InstantSource.system(), loader, Duration.ofSeconds(10)));
    }

    @Test
    @Timeout(120)
    void aStoreAddedThenOneRetiredUnderLoadRepeatsNothing() throws Exception {
        List<TestDatabase> databases = List.of(StoreFleetTest.fresh(TestDatabase.get(), "renum0"),
                StoreFleetTest.fresh(TestDatabase.postgres(), "renum1"), fresh(TestDatabase.get(), "renum2"));
        Server a = server(databases, StoreState.MEMBER, StoreState.MEMBER, StoreState.JOINING);
        Server b = server(databases, StoreState.MEMBER, StoreState.MEMBER, StoreState.JOINING);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong issued = new AtomicLong();
        ExecutorService callers = Executors.newFixedThreadPool(2);
        List<Future<long[]>> taken = new ArrayList<>();
        for (Server server : List.of(a, b)) {
            taken.add(callers.submit(() -> {
                long[] ids = new long[2_000_000];
                int n = 0;
                while (running.get() && n < ids.length) {
                    ids[n++] = server.generator().nextId();
                    if (n % 1_000 == 0) {
                        issued.addAndGet(1_000);
                        Thread.sleep(1); // a client's pace: a few hundred blocks in all, not thousands
                    }
                }
                return Arrays.copyOf(ids, n);
            }));
        }
        Numbering added;
        Numbering retired;
        try {
            awaitIssued(issued, 100_000, taken);
            added = a.fleet().renumber(Set.of());
            awaitIssued(issued, 250_000, taken);
            retired = a.fleet().renumber(Set.of(1));
            awaitIssued(issued, 400_000, taken);
        } finally {
            running.set(false);
        }
        Set<Long> seen = new HashSet<>();
        for (Future<long[]> server : taken) {
            long[] ids = server.get(30, TimeUnit.SECONDS);
            for (int i = 0; i < ids.length; i++) {
                assertThat(seen.add(ids[i])).as("ID %d given twice", ids[i]).isTrue();
                if (i > 0) {
                    assertThat(ids[i]).as("a server's IDs increase").isGreaterThan(ids[i - 1]);
                }
            }
        }
        callers.shutdownNow();
        assertThat(added.places()).containsExactly(0, 1, 2);
        assertThat(retired.places()).containsExactly(0, 2);
        assertThat(retired.base()).isGreaterThan(added.base());
        assertThat(b.fleet().current()).as("the other server follows").isEqualTo(retired);
        // Store 0 answered throughout, so it gave every block; the added store gives its own when asked.
        long fromAdded = b.multi().stores().get(2).store().reserveFrom(TAG, 1, 0).maxId() - 1;
        assertThat(retired.stripes(2).owns(fromAdded)).as("a block of the added store, in its stripes").isTrue();
        assertThat(seen).doesNotContain(fromAdded);
        assertThat(seen.stream().filter(id -> id >= retired.base()).filter(id -> !retired.stripes(0).owns(id)
                && !retired.stripes(2).owns(id)).count()).as("IDs of the retired store after it retired").isZero();
        assertThat(seen).hasSizeGreaterThanOrEqualTo(400_000);
        assertThatThrownBy(() -> a.fleet().renumber(Set.of(1))).isInstanceOf(StoreFleet.RenumberingRefused.class)
                .hasMessageContaining("not a member");
    }

    /** A joining store: Leaf's tables, no rows (a renumbering copies the tags). */
    private static TestDatabase fresh(TestDatabase base, String suffix) {
        base.derived(suffix).drop();
        return base.derived(suffix);
    }

    /** Until {@code count} IDs were taken; a server that stopped taking them fails the test with its cause. */
    private static void awaitIssued(AtomicLong issued, long count, List<Future<long[]>> servers) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (issued.get() < count) {
            for (Future<long[]> server : servers) {
                if (server.isDone()) {
                    server.get();
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + issued.get() + " IDs in 60 s");
            }
            Thread.sleep(5);
        }
    }
}
