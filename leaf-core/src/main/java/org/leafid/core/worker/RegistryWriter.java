package org.leafid.core.worker;


/**
 * The registry side of a {@link WriteThroughSink} (a database row, a ZooKeeper node): one write of
 * a reservation, and the lines an operator reads when writes fail and when they succeed again.
 */
public interface RegistryWriter {

    /**
     * Writes how far the reservation of {@code workerId} reaches.
     *
     * @param finalWrite true for the release: the registry is set to exactly this value, which may
     *     be lower than the one it holds (the final reservation ends just past the last ID issued)
     * @return false when the writer left the registry alone on purpose and logged why itself: the
     *     reservation is not confirmed
     * @throws WorkerIdLostException when the worker id is no longer this instance's
     * @throws Exception when the registry could not be written: an outage; the reservation is then not used
     */
    boolean write(int workerId, long reservedUntilMillis, boolean finalWrite) throws Exception;

    /** What the operator reads, once, when writes start failing with {@code failure}. */
    Failure describe(Exception failure, int workerId, long reservedUntilMillis);

    /** What the operator reads, once, when the registry is written again after a failure. */
    String recovered(int workerId);

    /**
     * A failed write as the operator reads it.
     *
     * @param error true when waiting will not heal it (the configuration is wrong): logged at
     *     ERROR rather than WARN
     */
    record Failure(String message, boolean error) {

        /** An outage that may heal by waiting: the database or ZooKeeper cannot be reached. */
        public static Failure warning(String message) {
            return new Failure(message, false);
        }

        /** A failure the operator has to act on. */
        public static Failure error(String message) {
            return new Failure(message, true);
        }
    }
}
