package org.leafid.core.segment;

/**
 * A witness of every server's blocks, in a store the fleet shares (ZooKeeper, Redis): it only claims
 * ({@link #claim}). There is nothing to start from: a start's first claim is checked against every
 * server's blocks.
 */
public interface FleetReservationWitness extends ReservationWitness {

    @Override
    default long witnessed(String key) {
        return Long.MIN_VALUE;
    }

    @Override
    default void record(String key, long reservedUpTo) {
        throw new UnsupportedOperationException("the fleet's witness records blocks: claim(key, start, end)");
    }

    @Override
    long claim(String key, long start, long end);

    @Override
    default boolean fleetWide() {
        return true;
    }

    /**
     * The same witness for another table's reservations ({@code id_alloc}'s shard rows): its keys apart
     * from this one's, so a shard row {@code "1:0"} and a tag of that name never meet.
     */
    FleetReservationWitness forTable(String table);
}
