package org.leafid.core.snowflake;

/**
 * The mechanism-specific half of a worker-id holder: finds this instance's worker id (from
 * configuration, a ZooKeeper node or a database row) and the reservation recorded for it.
 */
@FunctionalInterface
public interface WorkerIdRegistry {

    /**
     * Acquires this instance's worker id. May block, bounded by the registry's own timeouts.
     *
     * @throws org.leafid.core.LeafException or another runtime exception when no id can be had;
     *     the message says what an operator should do
     */
    Registration register();

    /**
     * An acquired worker id.
     *
     * @param recordedReservationMillis the reserved-until time recorded for this id by its
     *     previous holder (0 when none): IDs are issued only at or after it
     * @param sink where this holder records its own reservations from now on
     */
    record Registration(int workerId, long recordedReservationMillis, ReservationSink sink) {

        public Registration {
            if (workerId < 0) {
                // The layout bounds it from above (Leaf's 10 bits, or wider): the generator checks.
                throw new IllegalArgumentException("worker id must not be negative: " + workerId);
            }
        }
    }
}
