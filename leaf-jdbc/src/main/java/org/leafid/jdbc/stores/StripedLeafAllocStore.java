package org.leafid.jdbc.stores;

import java.util.List;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.FloorSegmentStore;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.leafid.jdbc.segment.LeafAllocSteps;

/**
 * One of several independent stores ({@code leaf.jdbc.stores[k]}): its {@code leaf_alloc} gives
 * blocks only inside its own stripes of the fleet's numbering ({@link Numbering}), each above the
 * floor the server asks for, through the same guarded reservation as one database (retries, store
 * identity, high-water marks). The store is checked against the fleet's record before its first
 * block ({@link StoreFleet}); a block is reserved only while the store serves the numbering its
 * stripes came from, and a renumbering is followed.
 */
public final class StripedLeafAllocStore implements FloorSegmentStore {

    /** Pauses while a renumbering has the store frozen: a few round trips of the renumbering. */
    private static final long FROZEN_PAUSE_MILLIS = 20;
    private static final int MOST_TRIES = 25;

    private final LeafAllocRepository repository;
    private final int place;
    private final StoreFleet fleet;
    private final Sleeper sleeper;

    public StripedLeafAllocStore(LeafAllocRepository repository, int place, StoreFleet fleet, Sleeper sleeper) {
        this.repository = repository;
        this.place = place;
        this.fleet = fleet;
        this.sleeper = sleeper;
    }

    @Override
    public AllocRow reserveFrom(String tag, long requestedStep, long from) {
        if (requestedStep < 1) {
            throw new IllegalArgumentException("requestedStep must be at least 1: " + requestedStep);
        }
        try {
            fleet.checkStore(place);
        } catch (StoreFleet.MismatchException notTheFleets) {
            // A store found to be another than the fleet's is a store that cannot give blocks, not a server fault.
            throw new SegmentStoreException(tag, notTheFleets.getMessage(), notTheFleets);
        }
        for (int tries = 1; ; tries++) {
            Numbering numbering = fleet.current();
            if (!numbering.member(place)) {
                throw new SegmentStoreException(tag, "leaf.jdbc.stores[" + place + "] is not a member of the fleet's"
                        + " numbering " + numbering.generation() + " (retired, or not added yet)", null);
            }
            try {
                return repository.reserve(new StripedTagSteps(new LeafAllocSteps(tag, requestedStep), from,
                        numbering.stripes(place), numbering.generation()));
            } catch (StripedTagSteps.OtherNumbering other) {
                if (tries == MOST_TRIES) {
                    throw new SegmentStoreException(tag, "leaf.jdbc.stores[" + place + "] stayed frozen by a"
                            + " renumbering; run POST /api/admin/stores/renumber again to finish it", null);
                }
                if (other.generation() == -1) {
                    pauseWhileFrozen(tag);
                } else if (other.generation() > numbering.generation()) {
                    fleet.reload(place);
                } else {
                    throw new SegmentStoreException(tag, "leaf.jdbc.stores[" + place + "] serves numbering "
                            + other.generation() + ", behind the fleet's " + numbering.generation() + " (a renumbering"
                            + " that did not finish, or the store restored from before it): nothing is reserved from"
                            + " it; run POST /api/admin/stores/renumber", null);
                }
            }
        }
    }

    private void pauseWhileFrozen(String tag) {
        try {
            sleeper.sleepMillis(FROZEN_PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SegmentStoreException(tag, "interrupted while leaf.jdbc.stores[" + place + "] was frozen", e);
        }
    }

    /** Only while a member of the fleet's numbering: a store joining or retired gives nothing. */
    @Override
    public boolean serving() {
        return fleet.current().member(place);
    }

    @Override
    public List<String> tags() {
        return repository.tags();
    }

    /** The store's own table: its tags, marks and identity, for the admin API and the meters. */
    public LeafAllocRepository repository() {
        return repository;
    }

    public int place() {
        return place;
    }
}
