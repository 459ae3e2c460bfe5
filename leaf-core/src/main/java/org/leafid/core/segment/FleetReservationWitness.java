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

    /**
     * {@inheritDoc}
     *
     * @throws FoundTwiceException when two databases answer for the key at once
     *     (this block or an earlier one proved it): nothing of the key is served until {@link #release}
     */
    @Override
    long claim(String key, long start, long end);

    /**
     * Lets a key found twice be claimed again, once an operator stopped the database that was not this
     * fleet's store; its blocks stay witnessed.
     *
     * @return whether the key was marked found twice
     */
    boolean release(String key);

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
