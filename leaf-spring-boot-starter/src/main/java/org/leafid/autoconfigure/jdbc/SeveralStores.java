package org.leafid.autoconfigure.jdbc;

import com.alibaba.druid.pool.DruidDataSource;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.MultiStoreSegmentStore;
import org.leafid.core.segment.Stripes;
import org.leafid.jdbc.JdbcUrls;
import org.leafid.jdbc.reservation.FleetWitnessedTables;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.leafid.jdbc.segment.LeafAllocTable;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.jdbc.stores.SeveralLeafAllocTables;
import org.leafid.jdbc.stores.StoreFleet;
import org.leafid.jdbc.stores.StripedLeafAllocStore;

/**
 * The databases of {@code leaf.jdbc.stores}: a pool, a guarded {@code leaf_alloc} and stripes of
 * numbers for each; the fleet they recorded, checked at start; the segment store that draws blocks
 * from whichever answers ({@link MultiStoreSegmentStore}); their tables as one for the admin API.
 */
public final class SeveralStores implements AutoCloseable {

    /** How often a store marked down is asked whether it answers again. */
    private static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);
    /** Where every store's stripes begin. */
    private static final long BASE = 0;

    private final List<DruidDataSource> pools;
    private final List<LeafAllocRepository> repositories;
    private final MultiStoreSegmentStore segmentStore;
    private final SeveralLeafAllocTables tables;

    private SeveralStores(List<DruidDataSource> pools, List<LeafAllocRepository> repositories,
            MultiStoreSegmentStore segmentStore) {
        this.pools = List.copyOf(pools);
        this.repositories = List.copyOf(repositories);
        this.segmentStore = segmentStore;
        this.tables = new SeveralLeafAllocTables(List.<LeafAllocTable>copyOf(repositories));
    }

    /**
     * @param pools one per store, in the order of {@code leaf.jdbc.stores}
     * @param largestBlock {@code leaf.segment.max-step}: how far a failover of one store moves its rows
     * @throws LeafConfigurationException when a store that answers is not the fleet's at its place
     */
    static SeveralStores open(List<DruidDataSource> pools, JdbcProperties jdbc, long largestBlock) {
        int count = pools.size();
        List<StoreFleet.Member> members = new ArrayList<>();
        List<LeafAllocRepository> repositories = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            SqlSessionFactory sessions = LeafSqlSessions.create(pools.get(k));
            StoreIdentityGuard identity = new StoreIdentityGuard(sessions, jdbc.wentBackSkipBlocks(), largestBlock,
                    FleetWitnessedTables.NONE);
            repositories.add(new LeafAllocRepository(sessions, Sleeper.system(), identity));
            members.add(new StoreFleet.Member(sessions, new Stripes(BASE, jdbc.stripeWidth(), count, k),
                    JdbcUrls.withoutPassword(pools.get(k).getUrl())));
        }
        StoreFleet fleet = new StoreFleet(members);
        try {
            fleet.checkAtStart();
        } catch (StoreFleet.MismatchException mismatch) {
            throw new LeafConfigurationException(mismatch.key(), "does not match the fleet the stores recorded: "
                    + mismatch.getMessage() + ".", "See docs/databases.md, \"Several stores\".");
        }
        List<MultiStoreSegmentStore.Store> stores = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            StoreFleet.Member member = members.get(k);
            stores.add(new MultiStoreSegmentStore.Store("stores[" + k + "]", member.where(),
                    new StripedLeafAllocStore(repositories.get(k), member.stripes(), fleet)));
        }
        return new SeveralStores(pools, repositories, new MultiStoreSegmentStore(stores, jdbc.storeTimeout(),
                PROBE_INTERVAL, InstantSource.system()));
    }

    /** Store {@code k}'s pool; the first one's also holds every other table of Leaf. */
    public DruidDataSource pool(int k) {
        return pools.get(k);
    }

    /** The segment store of blocks from whichever store answers. */
    public MultiStoreSegmentStore segmentStore() {
        return segmentStore;
    }

    /** Every store's {@code leaf_alloc} as one, for the tags view, the admin API and the formats. */
    public SeveralLeafAllocTables tables() {
        return tables;
    }

    /** Each store's own table, in order, for its meters. */
    public List<LeafAllocRepository> repositories() {
        return repositories;
    }

    @Override
    public void close() {
        segmentStore.close();
        pools.forEach(DruidDataSource::close);
    }
}
