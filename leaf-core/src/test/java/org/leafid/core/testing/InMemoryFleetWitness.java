package org.leafid.core.testing;

import java.util.HashMap;
import java.util.Map;
import org.leafid.core.segment.FleetReservationWitness;
import org.leafid.core.witness.WitnessedBlocks;

/** Every server's blocks, by the rule of the fleet's witnesses (ZooKeeper's and Redis's), in memory. */
public final class InMemoryFleetWitness implements FleetReservationWitness {

    private final Map<String, WitnessedBlocks> blocks = new HashMap<>();

    @Override
    public synchronized long claim(String key, long start, long end) {
        WitnessedBlocks witnessed = blocks.getOrDefault(key, WitnessedBlocks.EMPTY);
        long overlap = witnessed.overlap(start, end);
        if (overlap == Long.MIN_VALUE) {
            blocks.put(key, witnessed.with(start, end, 64));
        }
        return overlap;
    }

    /** One table's keys in these tests: the same witness. */
    @Override
    public FleetReservationWitness forTable(String table) {
        return this;
    }
}
