package org.leafid.core.worker;

/**
 * The mode-specific half of a worker-id holder: finds this instance's worker id and the reservation
 * recorded for it. One per worker-id mode, each in a package named after it:
 * {@code local} and {@code kubernetes} here (configuration, a pod's StatefulSet ordinal), {@code mysql}
 * and {@code disposable} in leaf-jdbc (a database row), {@code zk_normal} and {@code zk_recycle} in
 * leaf-zookeeper (a ZooKeeper node), {@code redis} in leaf-redis (a lease in Redis).
 */
@FunctionalInterface
public interface WorkerIdRegistry {

    /**
     * The largest worker id a registry hands out unless told otherwise: Leaf's 10 worker bits
     * ({@code SnowflakeLayout.MAX_WORKER_ID}, which the default layout's test holds equal to this).
     */
    int LEAF_MAX_WORKER_ID = 1023;

    /**
     * Acquires this instance's worker id. May block, bounded by the registry's own timeouts.
     *
     * @throws org.leafid.core.LeafException or another runtime exception when no id can be had;
     *     the message says what an operator should do
     */
    Registration register();

    /**
     * Whether an id this registry hands out is never handed to another process, ever (uid-generator's
     * disposable ids): then no later holder can meet this one's IDs, and the generator may borrow
     * time beyond the recorded reservation.
     */
    default boolean givesEachIdOnce() {
        return false;
    }

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
