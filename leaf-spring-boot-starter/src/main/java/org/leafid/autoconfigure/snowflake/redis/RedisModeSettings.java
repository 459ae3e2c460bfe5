package org.leafid.autoconfigure.snowflake.redis;

import java.time.Duration;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.LeafValues;
import org.leafid.autoconfigure.snowflake.LeaseRule;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.snowflake.redis.*}, the settings of the {@code redis} worker-id mode (Redis itself is
 * reached through {@code spring.data.redis.*}).
 *
 * @param lease a {@code redis} lease not renewed for this long runs out and the id is free; also how
 *     long takers wait after Redis may have lost the leases (a FLUSHALL, a restart, a failover). At
 *     least 2 x the report interval + 10 s, and the same on every instance
 * @param keyPrefix the prefix of the pool's keys in Redis; empty means {@code leaf:snowflake:{leaf.name}:}
 *     (the braces are a Redis Cluster hash tag: every key of one pool in one slot)
 * @param replicaAcks how many replicas must have a take or renewal (Redis {@code WAIT}) before it
 *     counts; unset means 1 behind Sentinel ({@code spring.data.redis.sentinel.master} set), else 0. A
 *     master frozen past Sentinel's {@code down-after} and promoted over would otherwise confirm leases
 *     no replica ever sees
 */
@ConfigurationProperties("leaf.snowflake.redis")
public record RedisModeSettings(
        @DefaultValue("30s") Duration lease,
        @DefaultValue("") String keyPrefix,
        Integer replicaAcks) {

    public RedisModeSettings {
        LeafValues.requirePositive("leaf.snowflake.redis.lease", lease);
        if (replicaAcks != null && (replicaAcks < 0 || replicaAcks > 16)) {
            throw new LeafConfigurationException("leaf.snowflake.redis.replica-acks", "is " + replicaAcks + ".",
                    "Give 0 (no replica needs the lease) to 16, or leave it unset: 1 behind Sentinel, else 0.");
        }
        if (keyPrefix != null && !keyPrefix.isEmpty() && keyPrefix.isBlank()) {
            throw new LeafConfigurationException("leaf.snowflake.redis.key-prefix", "is blank.",
                    "Leave it empty for leaf:snowflake:{leaf.name}:, or give a prefix such as leaf:ids:.");
        }
    }

    /**
     * These settings, once the lease is known to outlast what a holder may still issue: in this mode
     * it is also how long a taker waits when Redis may have lost the leases, by which time every
     * holder that lost its key must have stopped (docs/worker-id-modes.md).
     */
    /** The replicas a lease write waits for: as set, else 1 behind Sentinel and 0 without. */
    public int replicaAcks(boolean sentinel) {
        return replicaAcks != null ? replicaAcks : sentinel ? 1 : 0;
    }

    public RedisModeSettings checkedAgainst(Duration reportInterval) {
        LeaseRule.requireCovers("leaf.snowflake.redis.lease", lease, reportInterval);
        return this;
    }
}
