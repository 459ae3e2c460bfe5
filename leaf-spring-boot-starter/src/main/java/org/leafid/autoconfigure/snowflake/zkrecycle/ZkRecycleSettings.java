package org.leafid.autoconfigure.snowflake.zkrecycle;

import java.time.Duration;
import org.leafid.autoconfigure.LeafValues;
import org.leafid.autoconfigure.snowflake.LeaseRule;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.snowflake.recycle.*}, the settings of the {@code zk_recycle} worker-id mode.
 *
 * @param lease a {@code zk_recycle} id whose heartbeat is older than this goes back to the pool; at
 *     least 2 x the report interval + 10 s
 * @param sweepInterval how often each instance looks for such ids
 */
@ConfigurationProperties("leaf.snowflake.recycle")
public record ZkRecycleSettings(
        @DefaultValue("30s") Duration lease,
        @DefaultValue("5s") Duration sweepInterval) {

    public ZkRecycleSettings {
        LeafValues.requirePositive("leaf.snowflake.recycle.lease", lease);
        LeafValues.requirePositive("leaf.snowflake.recycle.sweep-interval", sweepInterval);
    }

    /** These settings, once the lease is known to outlast what a holder may still issue ({@link LeaseRule}). */
    public ZkRecycleSettings checkedAgainst(Duration reportInterval) {
        LeaseRule.requireCovers("leaf.snowflake.recycle.lease", lease, reportInterval);
        return this;
    }
}
