package org.leafid.autoconfigure.jdbc;

import com.alibaba.druid.pool.DruidDataSource;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.MultiStoreSegmentStore;
import org.leafid.jdbc.JdbcUrls;
import org.leafid.jdbc.reservation.FleetWitnessedTables;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.leafid.jdbc.segment.LeafAllocTable;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.jdbc.stores.Numbering;
import org.leafid.jdbc.stores.SeveralLeafAllocTables;
import org.leafid.jdbc.stores.StoreFleet;
import org.leafid.jdbc.stores.StoreState;
import org.leafid.jdbc.stores.StripedLeafAllocStore;

/**
 * The databases of {@code leaf.jdbc.stores}: a pool, a guarded {@code leaf_alloc} and a place in
 * the fleet's numbering for each; the fleet they recorded, checked at start; the segment store that
 * draws blocks from whichever answers ({@link MultiStoreSegmentStore}); their tables as one for the
 * admin API; the renumbering that adds and retires stores.
 */
public final class SeveralStores implements AutoCloseable {

    /** How often a store marked down is asked whether it answers again. */
    private static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);
    /** How long a store found up again is asked after the others: a restarted database recovers first. */
    private static final Duration WARM_UP = Duration.ofSeconds(10);

    private final List<DruidDataSource> pools;
    private final StoreFleet fleet;
    private final MultiStoreSegmentStore segmentStore;
    private final SeveralLeafAllocTables tables;

    private SeveralStores(List<DruidDataSource> pools, StoreFleet fleet, List<LeafAllocRepository> repositories,
            MultiStoreSegmentStore segmentStore) {
        this.pools = new ArrayList<>(pools);
        this.fleet = fleet;
        this.segmentStore = segmentStore;
        this.tables = new SeveralLeafAllocTables(List.<LeafAllocTable>copyOf(repositories));
    }

    /**
     * @param pools one per place of {@code leaf.jdbc.stores}; null for a retired store
     * @param largestBlock {@code leaf.segment.max-step}: how far a failover of one store moves its rows
     * @throws LeafConfigurationException when a store that answers is not the fleet's at its place
     */
    static SeveralStores open(List<DruidDataSource> pools, JdbcProperties jdbc, long largestBlock) {
        List<StoreFleet.Member> members = new ArrayList<>();
        List<LeafAllocRepository> repositories = new ArrayList<>();
        List<MultiStoreSegmentStore.Store> stores = new ArrayList<>();
        List<Integer> places = new ArrayList<>();
        for (int k = 0; k < pools.size(); k++) {
            StoreState state = jdbc.stores().get(k).state();
            if (state == StoreState.RETIRED) {
                members.add(new StoreFleet.Member(null, k, state, "retired"));
                continue;
            }
            SqlSessionFactory sessions = LeafSqlSessions.create(pools.get(k));
            StoreIdentityGuard identity = new StoreIdentityGuard(sessions, jdbc.wentBackSkipBlocks(), largestBlock,
                    FleetWitnessedTables.NONE);
            repositories.add(new LeafAllocRepository(sessions, Sleeper.system(), identity));
            members.add(new StoreFleet.Member(sessions, k, state, JdbcUrls.withoutPassword(pools.get(k).getUrl())));
            places.add(k);
        }
        StoreFleet fleet = new StoreFleet(members, jdbc.stripeWidth());
        try {
            fleet.checkAtStart();
        } catch (StoreFleet.MismatchException mismatch) {
            throw new LeafConfigurationException(mismatch.key(), "does not match the fleet the stores recorded: "
                    + mismatch.getMessage() + ".", "See docs/databases.md, \"Several stores\".");
        }
        for (int i = 0; i < places.size(); i++) {
            int place = places.get(i);
            stores.add(new MultiStoreSegmentStore.Store("stores[" + place + "]", members.get(place).where(),
                    new StripedLeafAllocStore(repositories.get(i), place, fleet, Sleeper.system())));
        }
        return new SeveralStores(pools, fleet, repositories, new MultiStoreSegmentStore(stores, jdbc.storeTimeout(),
                MultiStoreSegmentStore.Bound.STORE, PROBE_INTERVAL, WARM_UP, InstantSource.system()));
    }

    /** The segment store of blocks from whichever store answers. */
    public MultiStoreSegmentStore segmentStore() {
        return segmentStore;
    }

    /** Every store's {@code leaf_alloc} as one, for the tags view, the admin API and the formats. */
    public SeveralLeafAllocTables tables() {
        return tables;
    }

    /** The numbering the stores serve, as this server last saw it. */
    public Numbering numbering() {
        return fleet.current();
    }

    /**
     * Adds the stores listed as joining and retires {@code retire} ({@link StoreFleet#renumber}).
     *
     * @throws StoreFleet.RenumberingRefused when a store does not answer or the request names no member
     */
    public Numbering renumber(Set<Integer> retire) {
        if (retire.contains(0)) {
            throw new StoreFleet.RenumberingRefused("store 0 holds Leaf's other tables and cannot be retired", null);
        }
        return fleet.renumber(retire);
    }

    @Override
    public void close() {
        segmentStore.close();
        pools.stream().filter(Objects::nonNull).forEach(DruidDataSource::close);
    }
}
