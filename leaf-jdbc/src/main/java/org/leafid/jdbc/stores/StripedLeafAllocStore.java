package org.leafid.jdbc.stores;

import java.util.List;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.FloorSegmentStore;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.Stripes;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.leafid.jdbc.segment.LeafAllocSteps;

/**
 * One of several independent stores ({@code leaf.jdbc.stores[k]}): its {@code leaf_alloc} gives
 * blocks only inside its own stripes ({@link Stripes}), each above the floor the server asks for,
 * through the same guarded reservation as one database (retries, store identity, high-water marks).
 * The store is checked against the fleet's record before its first block ({@link StoreFleet}).
 */
public final class StripedLeafAllocStore implements FloorSegmentStore {

    private final LeafAllocRepository repository;
    private final Stripes stripes;
    private final StoreFleet fleet;

    public StripedLeafAllocStore(LeafAllocRepository repository, Stripes stripes, StoreFleet fleet) {
        this.repository = repository;
        this.stripes = stripes;
        this.fleet = fleet;
    }

    @Override
    public AllocRow reserveFrom(String tag, long requestedStep, long from) {
        if (requestedStep < 1) {
            throw new IllegalArgumentException("requestedStep must be at least 1: " + requestedStep);
        }
        try {
            fleet.checkBeforeFirstBlock(stripes.index());
        } catch (StoreFleet.MismatchException notTheFleets) {
            // A store found to be another than the fleet's is a store that cannot give blocks, not a server fault.
            throw new SegmentStoreException(tag, notTheFleets.getMessage(), notTheFleets);
        }
        return repository.reserve(new StripedTagSteps(new LeafAllocSteps(tag, requestedStep), from, stripes));
    }

    @Override
    public List<String> tags() {
        return repository.tags();
    }

    /** The store's own table: its tags, marks and identity, for the admin API and the meters. */
    public LeafAllocRepository repository() {
        return repository;
    }

    public Stripes stripes() {
        return stripes;
    }
}
