package org.leafid.core.segment;

/**
 * A record of how far this server's reservations reached, kept where a restore of the store cannot
 * reach it (the server's data directory): a generator never serves a number below what its witness
 * holds, so a backup restored under a restarted server repeats nothing it had reserved.
 */
public interface ReservationWitness {

    /** No witness: a restart knows only what the store says. */
    ReservationWitness NONE = new ReservationWitness() {
        @Override
        public long witnessed(String key) {
            return Long.MIN_VALUE;
        }

        @Override
        public void record(String key, long reservedUpTo) {
        }
    };

    /** One past the highest number ever reserved for {@code key}, as witnessed; {@link Long#MIN_VALUE} when none. */
    long witnessed(String key);

    /**
     * Durably records that every number below {@code reservedUpTo} was reserved for {@code key},
     * before any of them is served; never lowers what is recorded.
     *
     * @throws RuntimeException when it could not be recorded durably: the block is then not served
     */
    void record(String key, long reservedUpTo);
}
