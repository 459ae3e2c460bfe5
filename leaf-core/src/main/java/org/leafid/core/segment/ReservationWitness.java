package org.leafid.core.segment;

/**
 * A record of how far reservations reached, kept where a restore of the store cannot reach it: this
 * server's data directory (its own blocks), or ZooKeeper or Redis (every server's blocks, fleet-wide).
 * A generator never serves a number below what its witness holds, so a backup restored under a
 * restarted server repeats nothing witnessed.
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

    /**
     * Records the block {@code [start, end)} of {@code key} before any of it is served, unless it
     * overlaps a block witnessed before: then the store went back below numbers already reserved,
     * and the answer is the end of the highest block witnessed, which nothing may be served below.
     * A witness of this server's blocks only records ({@link #record}).
     *
     * @return {@link Long#MIN_VALUE} when recorded; else the witnessed end to skip to (nothing recorded)
     * @throws RuntimeException when it could not be recorded durably: the block is then not served
     */
    default long claim(String key, long start, long end) {
        record(key, end);
        return Long.MIN_VALUE;
    }

    /**
     * Whether {@link #claim} sees every server's blocks. Then a row found below a generator's own blocks
     * is carried to the witnessed end without a margin for the blocks other servers may have reserved:
     * the claim of the next block sees them.
     */
    default boolean fleetWide() {
        return false;
    }

    /** This server's witness and the fleet's together: a block is claimed in the fleet's, then recorded in this one. */
    static ReservationWitness both(ReservationWitness own, ReservationWitness fleet) {
        return new ReservationWitness() {
            @Override
            public long witnessed(String key) {
                return own.witnessed(key);
            }

            @Override
            public void record(String key, long reservedUpTo) {
                own.record(key, reservedUpTo);
            }

            @Override
            public long claim(String key, long start, long end) {
                long witnessedEnd = fleet.claim(key, start, end);
                if (witnessedEnd == Long.MIN_VALUE) {
                    own.record(key, end);
                }
                return witnessedEnd;
            }

            @Override
            public boolean fleetWide() {
                return fleet.fleetWide();
            }
        };
    }
}
