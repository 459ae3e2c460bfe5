package org.leafid.core.worker;

/**
 * Where a holder records how far its reservation reaches (a cache file, a ZooKeeper node, a
 * database row). Recording must be durable before it returns: the reservation is only used
 * after it is recorded.
 */
@FunctionalInterface
public interface ReservationSink {

    /**
     * Durably records that worker {@code workerId} may issue IDs until {@code reservedUntilMillis}.
     *
     * @throws RuntimeException when it could not be recorded; the holder then does not extend
     */
    void record(int workerId, long reservedUntilMillis);

    /**
     * Records the final reservation when the holder gives the id up; a recycling registry also
     * returns the id to its pool here. By default the same as {@link #record}.
     */
    default void release(int workerId, long finalReservationMillis) {
        record(workerId, finalReservationMillis);
    }
}
