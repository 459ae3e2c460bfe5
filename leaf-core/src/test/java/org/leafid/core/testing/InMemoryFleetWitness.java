package org.leafid.core.testing;

import java.util.HashMap;
import java.util.Map;
import org.leafid.core.segment.FleetReservationWitness;
import org.leafid.core.segment.FoundTwiceException;
import org.leafid.core.witness.WitnessedBlocks;

/** Every server's blocks, by the rule of the fleet's witnesses (ZooKeeper's and Redis's), in memory. */
public final class InMemoryFleetWitness implements FleetReservationWitness {

    private final Map<String, WitnessedBlocks> blocks = new HashMap<>();

    @Override
    public synchronized long claim(String key, long start, long end) {
        WitnessedBlocks.Claimed claimed = blocks.getOrDefault(key, WitnessedBlocks.EMPTY).claim(start, end,
                WitnessedBlocks.newClaimId(), 64);
        blocks.put(key, claimed.next());
        return switch (claimed.outcome()) {
            case RECORDED -> Long.MIN_VALUE;
            case WENT_BACK -> claimed.witnessedEnd();
            case FOUND_TWICE -> throw new FoundTwiceException("leaf_alloc", key, "memory");
        };
    }

    @Override
    public synchronized boolean release(String key) {
        WitnessedBlocks witnessed = blocks.get(key);
        if (witnessed == null || !witnessed.twice()) {
            return false;
        }
        blocks.put(key, witnessed.released());
        return true;
    }

    /** One table's keys in these tests: the same witness. */
    @Override
    public FleetReservationWitness forTable(String table) {
        return this;
    }
}
