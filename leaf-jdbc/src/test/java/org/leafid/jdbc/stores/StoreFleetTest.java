package org.leafid.jdbc.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.druid.pool.DruidDataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.Stripes;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * Every store records the fleet it belongs to; a server configured with another fleet is refused,
 * naming the key: another number of stores, another order, a store listed twice, a copy of a store,
 * a new database in place of one, other stripes. On the local MariaDB and PostgreSQL.
 */
class StoreFleetTest {

    private static final long WIDTH = 100_000;
    private static final String TAG = "fleet";

    private final List<DruidDataSource> pools = new ArrayList<>();

    @AfterEach
    void closePools() {
        pools.forEach(DruidDataSource::close);
    }

    /** A new, empty database beside the test one, with Leaf's tables and the tag. */
    static TestDatabase fresh(TestDatabase base, String suffix) {
        base.derived(suffix).drop();
        TestDatabase database = base.derived(suffix);
        database.insertTag(TAG, 1, 1_000);
        return database;
    }

    private SqlSessionFactory sessions(TestDatabase database) {
        DruidDataSource pool = database.newPool();
        pools.add(pool);
        return LeafSqlSessions.create(pool);
    }

    private StoreFleet fleet(List<TestDatabase> databases, long width) {
        return fleet(databases, width, new StoreState[databases.size()]);
    }

    /** @param states each store's, null for a member */
    private StoreFleet fleet(List<TestDatabase> databases, long width, StoreState... states) {
        List<StoreFleet.Member> members = new ArrayList<>();
        for (int k = 0; k < databases.size(); k++) {
            members.add(new StoreFleet.Member(sessions(databases.get(k)), k,
                    states[k] == null ? StoreState.MEMBER : states[k], databases.get(k).url()));
        }
        return new StoreFleet(members, width);
    }

    private List<TestDatabase> three() {
        return List.of(fresh(TestDatabase.get(), "fleet0"), fresh(TestDatabase.postgres(), "fleet1"),
                fresh(TestDatabase.get(), "fleet2"));
    }

    @Test
    void aFleetRecordedOnceIsAcceptedAgainInTheSameOrder() {
        List<TestDatabase> stores = three();
        fleet(stores, WIDTH).checkAtStart();
        fleet(stores, WIDTH).checkAtStart();
        assertThat(stores.get(1).number("SELECT high FROM leaf_high_water WHERE name = 'leaf:fleet:index'"))
                .isEqualTo(1);
        assertThat(stores.get(0).number("SELECT high FROM leaf_high_water WHERE name = 'leaf:fleet:store:1'"))
                .as("store 0 records store 1's token")
                .isEqualTo(stores.get(1).number("SELECT high FROM leaf_high_water WHERE name = 'leaf:fleet:token'"));
    }

    /**
     * Servers of a new fleet starting at the same moment all write every store's record: InnoDB
     * answers some of them with a deadlock (seen in the fault suite), which is tried again, so every
     * server starts, and the stores hold one fleet that a later server accepts.
     */
    @Test
    void serversStartingTogetherAllJoinTheSameFleet() throws Exception {
        for (int round = 0; round < 3; round++) {
            List<TestDatabase> stores = three();
            List<StoreFleet> servers = List.of(fleet(stores, WIDTH), fleet(stores, WIDTH), fleet(stores, WIDTH),
                    fleet(stores, WIDTH));
            ExecutorService starting = Executors.newFixedThreadPool(servers.size());
            try {
                CyclicBarrier together = new CyclicBarrier(servers.size());
                List<Future<?>> started = new ArrayList<>();
                for (StoreFleet server : servers) {
                    started.add(starting.submit(() -> {
                        together.await();
                        server.checkAtStart();
                        return null;
                    }));
                }
                for (Future<?> start : started) {
                    start.get(60, TimeUnit.SECONDS);
                }
            } finally {
                starting.shutdownNow();
            }
            // A server started after them accepts the fleet they recorded, and completes each store's
            // record of the others' tokens (a store records those its checker already knew).
            fleet(stores, WIDTH).checkAtStart();
            for (int k = 0; k < 3; k++) {
                long token = stores.get(k).number("SELECT high FROM leaf_high_water WHERE name = 'leaf:fleet:token'");
                for (int other = 0; other < 3; other++) {
                    if (other != k) {
                        assertThat(stores.get(other).number("SELECT high FROM leaf_high_water WHERE name = "
                                + "'leaf:fleet:store:" + k + "'")).as("store %d's token in store %d", k, other)
                                .isEqualTo(token);
                    }
                }
            }
        }
    }

    @Test
    void storesInAnotherOrderAreRefusedNamingTheKey() {
        List<TestDatabase> stores = three();
        fleet(stores, WIDTH).checkAtStart();
        assertThatThrownBy(() -> fleet(List.of(stores.get(1), stores.get(0), stores.get(2)), WIDTH).checkAtStart())
                .isInstanceOf(StoreFleet.MismatchException.class)
                .hasMessageContaining("leaf.jdbc.stores[0].url")
                .hasMessageContaining("recorded as store 1").hasMessageContaining("another order");
    }

    @Test
    void anotherNumberOfStoresIsRefused() {
        List<TestDatabase> stores = three();
        fleet(stores, WIDTH).checkAtStart();
        assertThatThrownBy(() -> fleet(stores.subList(0, 2), WIDTH).checkAtStart())
                .isInstanceOf(StoreFleet.MismatchException.class)
                .hasMessageContaining("leaf.jdbc.stores lists 2 stores")
                .hasMessageContaining("numbering 0 has store 2 as a member");
    }

    @Test
    void aStoreListedTwiceIsRefusedOnANewFleet() {
        TestDatabase only = fresh(TestDatabase.get(), "fleet0");
        assertThatThrownBy(() -> fleet(List.of(only, only), WIDTH).checkAtStart())
                .isInstanceOf(StoreFleet.MismatchException.class)
                .hasMessageContaining("leaf.jdbc.stores[1].url").hasMessageContaining("listed twice");
    }

    @Test
    void aCopyOfAStoreInPlaceOfAnotherIsRefused() {
        List<TestDatabase> stores = three();
        fleet(stores, WIDTH).checkAtStart();
        TestDatabase copyOfFirst = stores.get(0).copyAs("fleetcopy");
        assertThatThrownBy(() -> fleet(List.of(stores.get(0), stores.get(1), copyOfFirst), WIDTH).checkAtStart())
                .isInstanceOf(StoreFleet.MismatchException.class)
                .hasMessageContaining("leaf.jdbc.stores[2].url").hasMessageContaining("a copy of store 0");
    }

    @Test
    void aNewDatabaseInPlaceOfAStoreIsRefused() {
        List<TestDatabase> stores = three();
        fleet(stores, WIDTH).checkAtStart();
        TestDatabase replacement = fresh(TestDatabase.get(), "fleetnew");
        assertThatThrownBy(() -> fleet(List.of(stores.get(0), replacement, stores.get(2)), WIDTH).checkAtStart())
                .isInstanceOf(StoreFleet.MismatchException.class)
                .hasMessageContaining("leaf.jdbc.stores[1].url").hasMessageContaining("has no record of the fleet");
    }

    @Test
    void anotherStripeWidthIsRefused() {
        List<TestDatabase> stores = three();
        fleet(stores, WIDTH).checkAtStart();
        assertThatThrownBy(() -> fleet(stores, WIDTH * 2).checkAtStart())
                .isInstanceOf(StoreFleet.MismatchException.class)
                .hasMessageContaining("leaf.jdbc.stripe-width is 200000").hasMessageContaining("stripes of 100000");
    }

    @Test
    void aStoreListedAsAMemberThatIsNotOneIsRefused() {
        List<TestDatabase> stores = three();
        fleet(stores.subList(0, 2), WIDTH).checkAtStart();
        assertThatThrownBy(() -> fleet(stores, WIDTH).checkAtStart())
                .isInstanceOf(StoreFleet.MismatchException.class)
                .hasMessageContaining("leaf.jdbc.stores[2].url is listed as a member")
                .hasMessageContaining("state=joining");
    }

    /**
     * A store down at start is checked before its first block: a mismatch found then is a store that
     * gives nothing (a fault naming the key), not a start refused.
     */
    @Test
    void aStoreCheckedAtItsFirstBlockThatIsNotTheFleetsGivesNothing() {
        List<TestDatabase> stores = three();
        fleet(stores, WIDTH).checkAtStart();
        List<TestDatabase> swapped = List.of(stores.get(0), stores.get(2), stores.get(1));
        StoreFleet fleet = fleet(swapped, WIDTH);
        StripedLeafAllocStore second = striped(fleet, swapped, 1);
        assertThatThrownBy(() -> second.reserveFrom(TAG, 1, 0)).isInstanceOf(SegmentStoreException.class)
                .hasMessageContaining("leaf.jdbc.stores[1].url");
        AllocRow fromFirst = striped(fleet, swapped, 0).reserveFrom(TAG, 1, 0);
        assertThat(new Stripes(0, WIDTH, 3, 0).owns(fromFirst.maxId() - 1)).isTrue();
    }

    /**
     * The high-water guard keeps working per store: a row set back with its mark is pushed above
     * what the server asks for, into the store's own stripe; one set back alone goes above its mark.
     */
    @Test
    void aRowSetBackIsPushedIntoItsOwnStripeAboveTheFloorAndTheMark() throws Exception {
        List<TestDatabase> stores = three();
        StoreFleet fleet = fleet(stores, WIDTH);
        fleet.checkAtStart();
        StripedLeafAllocStore second = striped(fleet, stores, 1);
        Stripes own = fleet.current().stripes(1);
        AllocRow first = second.reserveFrom(TAG, 1, 0);
        assertThat(first.maxId()).isEqualTo(WIDTH + 1_000);
        AllocRow above = second.reserveFrom(TAG, 1, 450_000);
        assertThat(above.maxId() - 1_000).as("inside stripe 4 (400000..499999, store 1's): at the floor")
                .isEqualTo(450_000);
        AllocRow next = second.reserveFrom(TAG, 1, 499_500);
        assertThat(next.maxId() - 1_000).as("too little room left in stripe 4: the start of stripe 7, store 1's next")
                .isEqualTo(7 * WIDTH);
        stores.get(1).update("UPDATE leaf_alloc SET max_id = 1 WHERE biz_tag = ?", TAG);
        AllocRow afterSetBack = second.reserveFrom(TAG, 1, 0);
        assertThat(afterSetBack.maxId() - 1_000).as("above the mark, inside an own stripe")
                .isGreaterThanOrEqualTo(next.maxId());
        assertThat(own.owns(afterSetBack.maxId() - 1_000) && own.owns(afterSetBack.maxId() - 1)).isTrue();
    }

    /**
     * A renumbering that freezes a store while a reservation is between Leaf's UPDATE and its read of
     * the generation: the reservation waits for the freeze, reads the store frozen, and its UPDATE is
     * rolled back, so the row stays where the renumbering reads it; nothing is served while frozen,
     * and the store serves again, above the row, once the numbering is recorded. On a MariaDB store
     * and on a PostgreSQL one.
     */
    @Test
    void aReservationThatMeetsAFreezeMovesNothing() throws Exception {
        List<TestDatabase> stores = three();
        StoreFleet fleet = fleet(stores, WIDTH);
        fleet.checkAtStart();
        ExecutorService reserving = Executors.newSingleThreadExecutor();
        try {
            for (int k : new int[] {0, 1}) {
                StripedLeafAllocStore store = striped(fleet, stores, k);
                long served = store.reserveFrom(TAG, 1, 0).maxId();
                long before = stores.get(k).maxId(TAG);
                Future<AllocRow> meetsTheFreeze;
                try (Connection freezing = stores.get(k).connect()) {
                    freezing.setAutoCommit(false);
                    try (Statement statement = freezing.createStatement()) {
                        statement.executeQuery("SELECT high FROM leaf_high_water WHERE name IN ('"
                                + FleetRecord.GENERATION + "', '" + FleetRecord.FROZEN + "') FOR UPDATE").close();
                        statement.executeUpdate("UPDATE leaf_high_water SET high = 1 WHERE name = '"
                                + FleetRecord.FROZEN + "'");
                        meetsTheFreeze = reserving.submit(() -> store.reserveFrom(TAG, 1, served));
                        // Long enough for the reservation's UPDATE to lock the row and wait on the freeze.
                        Thread.sleep(300);
                        assertThat(meetsTheFreeze).as("store %d: waits for the freeze", k).isNotDone();
                    }
                    freezing.commit();
                }
                assertThatThrownBy(() -> meetsTheFreeze.get(30, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(SegmentStoreException.class).hasMessageContaining("stayed frozen");
                assertThat(stores.get(k).maxId(TAG)).as("store %d: the UPDATE was rolled back", k).isEqualTo(before);
                stores.get(k).update("UPDATE leaf_high_water SET high = 0 WHERE name = ?", FleetRecord.FROZEN);
                AllocRow after = store.reserveFrom(TAG, 1, served);
                assertThat(after.maxId() - 1_000).as("store %d: served again above what it served", k)
                        .isGreaterThanOrEqualTo(served);
            }
        } finally {
            reserving.shutdownNow();
        }
    }

    private StripedLeafAllocStore striped(StoreFleet fleet, List<TestDatabase> databases, int k) {
        SqlSessionFactory sessions = sessions(databases.get(k));
        return new StripedLeafAllocStore(new LeafAllocRepository(sessions, Sleeper.system(),
                new StoreIdentityGuard(sessions, StoreIdentityGuard.DEFAULT_SKIP_BLOCKS)), k, fleet, Sleeper.system());
    }
}
