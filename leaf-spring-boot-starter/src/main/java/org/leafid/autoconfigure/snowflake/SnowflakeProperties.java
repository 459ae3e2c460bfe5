package org.leafid.autoconfigure.snowflake;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.segment.SegmentProperties;
import org.leafid.core.Durations;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code leaf.snowflake.*}.
 *
 * @param enable snowflake mode on or off
 * @param mode where the worker id comes from; unset: {@code zk_normal} with a
 *     {@code zk.address}, else {@code local} (see {@link WorkerIdModeChoice})
 * @param port the port that, with the IP, names this instance; empty means {@code server.port}
 * @param ip the IP that names this instance; empty means the first non-loopback IPv4 address
 * @param twepoch the epoch of the IDs' timestamps in ms (Leaf's default: 2010-11-04)
 * @param reportInterval how often the time reservation is renewed; it reaches 2 x this ahead
 * @param maxStartWait how long a start waits for the clock to pass a recorded reservation
 * @param maxBackwardsWait a clock step back up to this is waited out; more is refused
 */
@Validated
@ConfigurationProperties("leaf.snowflake")
public record SnowflakeProperties(
        @DefaultValue("true") boolean enable,
        WorkerIdMode mode,
        @DefaultValue @Valid Zk zk,
        @Min(1) @Max(65535) Integer port,
        String ip,
        @DefaultValue("1288834974657") @Min(0) long twepoch,
        @DefaultValue @Valid Local local,
        @DefaultValue("3s") Duration reportInterval,
        @DefaultValue("10s") Duration maxStartWait,
        @DefaultValue("5ms") Duration maxBackwardsWait,
        @DefaultValue @Valid Recycle recycle) {

    /** The least time between an instance stopping for want of heartbeats and its id being swept. */
    public static final Duration RECYCLE_SAFETY_MARGIN = Duration.ofSeconds(10);

    /** {@code mode} unset becomes the mode of {@link WorkerIdModeChoice}'s rule, so it is never null. */
    public SnowflakeProperties {
        mode = WorkerIdModeChoice.of(mode, zk.address()).mode();
        SegmentProperties.requirePositive("leaf.snowflake.report-interval", reportInterval);
        SegmentProperties.requireNotNegative("leaf.snowflake.max-start-wait", maxStartWait);
        SegmentProperties.requireNotNegative("leaf.snowflake.max-backwards-wait", maxBackwardsWait);
        if (enable && mode.zookeeper() && (zk.address() == null || zk.address().isBlank())) {
            throw new LeafConfigurationException("leaf.snowflake.zk.address",
                    "must be set for leaf.snowflake.mode=" + mode.key() + ".",
                    "Set it to a ZooKeeper connect string such as 127.0.0.1:2181, or choose another "
                            + "leaf.snowflake.mode (local, mysql).");
        }
        // An instance stops issuing at most 2 x report-interval after its last heartbeat; its id
        // may be swept only after the lease, so the lease must leave a margin beyond that.
        // Only zk_recycle sweeps ids, so only it has a lease to check.
        Duration least = reportInterval.multipliedBy(2).plus(RECYCLE_SAFETY_MARGIN);
        if (enable && mode == WorkerIdMode.ZK_RECYCLE && recycle.lease().compareTo(least) < 0) {
            throw new LeafConfigurationException("leaf.snowflake.recycle.lease",
                    "is " + Durations.format(recycle.lease()) + ", shorter than 2 x leaf.snowflake.report-interval ("
                            + Durations.format(reportInterval) + ") + " + Durations.format(RECYCLE_SAFETY_MARGIN)
                            + " = " + Durations.format(least) + ": an id could be given to another instance "
                            + "while its holder still issues.",
                    "Set leaf.snowflake.recycle.lease to at least " + Durations.format(least)
                            + " or shorten leaf.snowflake.report-interval.");
        }
    }

    /**
     * @param address ZooKeeper connect string, for the zk modes
     * @param sessionTimeout ZooKeeper session timeout
     * @param connectTimeout how long a start waits to reach ZooKeeper before using the cache file
     * @param leafCacheDir the {@code java.io.tmpdir} Meituan Leaf ran with (its cache file is there); empty = ours
     */
    public record Zk(
            String address,
            @DefaultValue("15s") Duration sessionTimeout,
            @DefaultValue("3s") Duration connectTimeout,
            String leafCacheDir) {}

    /**
     * @param lease a {@code zk_recycle} id whose heartbeat is older than this goes back to the pool
     * @param sweepInterval how often each instance looks for such ids
     */
    public record Recycle(
            @DefaultValue("30s") Duration lease,
            @DefaultValue("5s") Duration sweepInterval) {}

    /**
     * @param workIdMap JSON object {@code {"ip:port": workerId}}, as in Leaf
     * @param workerId used when the map has no entry for this instance
     */
    public record Local(
            @DefaultValue("{}") String workIdMap,
            @DefaultValue("0") @Min(0) @Max(1023) int workerId) {}
}
