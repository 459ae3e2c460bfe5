package org.leafid.redis.worker;

import java.time.Duration;

/**
 * How the {@code redis} worker-id mode keeps its leases.
 *
 * @param keyPrefix every key of the pool starts with it ({@code leaf:snowflake:{leaf}:}); the part
 *     in braces is a Redis Cluster hash tag, so that the scripts' keys share one slot
 * @param lease how long a lease lasts without renewal, and how long a taker waits when Redis may
 *     have lost the leases: at least the reservation horizon (2 x the report interval) of every
 *     instance of the fleet, plus a margin for clock skew and pauses
 * @param maxWorkerId the largest id taken: the layout's, at most 1023
 * @param replicaAcks how many replicas must acknowledge a take or renewal (Redis {@code WAIT})
 *     before it counts; 0 for none
 * @param replicaAckTimeout how long one {@code WAIT} waits for them
 */
public record RedisWorkerSettings(String keyPrefix, Duration lease, int maxWorkerId, int replicaAcks,
        Duration replicaAckTimeout) {

    /**
     * The most ids a pool holds, whatever the layout's worker bits: a take scans the pool in one
     * script, which 2^20 keys would turn into a stall of Redis. Leaf's 10 bits give exactly this.
     */
    public static final int POOL_LIMIT = 1024;

    public RedisWorkerSettings {
        if (keyPrefix == null || keyPrefix.isEmpty()) {
            throw new IllegalArgumentException("keyPrefix must not be empty");
        }
        if (lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease must be positive: " + lease);
        }
        if (maxWorkerId < 0) {
            throw new IllegalArgumentException("maxWorkerId must not be negative: " + maxWorkerId);
        }
        if (replicaAcks < 0) {
            throw new IllegalArgumentException("replicaAcks must not be negative: " + replicaAcks);
        }
        if (replicaAckTimeout.isNegative() || replicaAckTimeout.isZero()) {
            throw new IllegalArgumentException("replicaAckTimeout must be positive: " + replicaAckTimeout);
        }
        maxWorkerId = Math.min(maxWorkerId, POOL_LIMIT - 1);
    }

    /** No replica waited for, {@code WAIT} never sent. */
    public RedisWorkerSettings(String keyPrefix, Duration lease, int maxWorkerId) {
        this(keyPrefix, lease, maxWorkerId, 0, Duration.ofSeconds(1));
    }

    /** The prefix of a Leaf cluster: {@code leaf:snowflake:{name}:}. */
    public static String defaultKeyPrefix(String leafName) {
        return "leaf:snowflake:{" + leafName + "}:";
    }
}
