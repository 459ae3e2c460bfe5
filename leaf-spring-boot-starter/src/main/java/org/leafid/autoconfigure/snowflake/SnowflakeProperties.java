package org.leafid.autoconfigure.snowflake;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.LeafValues;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdModeChoice;
import org.leafid.core.Durations;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.snowflake.*}.
 *
 * @param enable snowflake mode on or off
 * @param mode where the worker id comes from; unset: {@code zk_normal} with a
 *     {@code zk.address}, else {@code local} (docs/worker-id-modes.md says which to choose)
 * @param port the port that, with the IP, names this instance; empty means {@code server.port}
 * @param ip the IP that names this instance; empty means the first non-loopback IPv4 address
 * @param twepoch the epoch of the IDs' timestamps in ms; unset, the preset's ({@code 1288834974657}, Leaf's
 *     2010-11-04); not with {@code epoch}. Must be in the past, and the layout must not end within a year
 * @param epoch the epoch as an ISO date (midnight UTC), as uid-generator writes it; not with {@code twepoch}
 * @param layout the bit layout: a preset ({@code leaf.snowflake.layout=leaf|uid-generator}) and/or widths
 * @param timeUnit the unit of the time field, {@code ms} or {@code s}; unset, the preset's
 * @param borrowAhead when a time unit's sequences are spent, issue from the next units instead of waiting
 * @param disposable settings of the {@code disposable} worker-id mode
 * @param kubernetes settings of the {@code kubernetes} worker-id mode
 * @param reportInterval how often the time reservation is renewed; it reaches 2 x this ahead
 * @param maxStartWait how long a start waits for the clock to pass a recorded reservation; keep it at
 *     least 2 x the report interval, so a restart right after a crash waits instead of being refused
 * @param maxBackwardsWait a clock step back up to this is waited out; more is refused
 * @param recycle settings of the {@code zk_recycle} worker-id mode
 * @param redis settings of the {@code redis} worker-id mode
 */
@ConfigurationProperties("leaf.snowflake")
public record SnowflakeProperties(
        @DefaultValue("true") boolean enable,
        WorkerIdMode mode,
        @DefaultValue Zk zk,
        Integer port,
        String ip,
        Long twepoch,
        LocalDate epoch,
        @DefaultValue Layout layout,
        String timeUnit,
        @DefaultValue("false") boolean borrowAhead,
        @DefaultValue Disposable disposable,
        @DefaultValue Local local,
        @DefaultValue Kubernetes kubernetes,
        @DefaultValue("3s") Duration reportInterval,
        @DefaultValue("10s") Duration maxStartWait,
        @DefaultValue("5ms") Duration maxBackwardsWait,
        @DefaultValue Recycle recycle,
        @DefaultValue Redis redis) {

    /** The least time between an instance stopping for want of heartbeats and its id being swept. */
    public static final Duration RECYCLE_SAFETY_MARGIN = Duration.ofSeconds(10);

    /** {@code mode} unset becomes the mode of {@link WorkerIdModeChoice}'s rule, so it is never null. */
    public SnowflakeProperties {
        mode = WorkerIdModeChoice.of(mode, zk.address()).mode();
        LeafValues.requireBetweenIfSet("leaf.snowflake.port", port, 1, 65535);
        LeafValues.requireBetweenIfSet("leaf.snowflake.twepoch", twepoch, 0, Long.MAX_VALUE);
        LeafValues.requirePositive("leaf.snowflake.report-interval", reportInterval);
        LeafValues.requireNotNegative("leaf.snowflake.max-start-wait", maxStartWait);
        LeafValues.requireNotNegative("leaf.snowflake.max-backwards-wait", maxBackwardsWait);
        if (enable && mode.zookeeper() && (zk.address() == null || zk.address().isBlank())) {
            throw new LeafConfigurationException("leaf.snowflake.zk.address",
                    "must be set for leaf.snowflake.mode=" + mode.key() + ".",
                    "Set it to a ZooKeeper connect string such as 127.0.0.1:2181, or choose another "
                            + "leaf.snowflake.mode (local, mysql).");
        }
        // An instance stops issuing at most 2 x report-interval after its last heartbeat; its id
        // may be swept (zk_recycle) or its lease run out (redis) only after the lease, so the lease
        // must leave a margin beyond that. The other modes lease nothing.
        Duration least = reportInterval.multipliedBy(2).plus(RECYCLE_SAFETY_MARGIN);
        if (enable && mode == WorkerIdMode.ZK_RECYCLE) {
            requireLeaseOfAtLeast("leaf.snowflake.recycle.lease", recycle.lease(), least, reportInterval);
        }
        // In redis mode the lease is also how long a taker waits when Redis may have lost the
        // leases: every holder that lost its key must have stopped by then (docs/worker-id-modes.md).
        if (enable && mode == WorkerIdMode.REDIS) {
            requireLeaseOfAtLeast("leaf.snowflake.redis.lease", redis.lease(), least, reportInterval);
        }
    }

    private static void requireLeaseOfAtLeast(String key, Duration lease, Duration least, Duration reportInterval) {
        if (lease.compareTo(least) < 0) {
            throw new LeafConfigurationException(key,
                    "is " + Durations.format(lease) + ", shorter than 2 x leaf.snowflake.report-interval ("
                            + Durations.format(reportInterval) + ") + " + Durations.format(RECYCLE_SAFETY_MARGIN)
                            + " = " + Durations.format(least) + ": an id could be given to another instance "
                            + "while its holder still issues.",
                    "Set " + key + " to at least " + Durations.format(least)
                            + " or shorten leaf.snowflake.report-interval.");
        }
    }

    /**
     * The layout the keys describe: the preset, its widths, unit and epoch replaced by the keys set.
     *
     * @throws LeafConfigurationException naming the key when a value is not usable
     */
    public SnowflakeLayout snowflakeLayout() {
        return snowflakeLayout(layout);
    }

    /**
     * The layout with {@code layout} in place of the bound {@code leaf.snowflake.layout.*}: see
     * {@link LayoutKeys}, which needs it.
     */
    SnowflakeLayout snowflakeLayout(Layout layout) {
        SnowflakeLayout preset = layout.presetLayout();
        Integer[] widths = {layout.timeBits(), layout.workerBits(), layout.sequenceBits()};
        long set = Arrays.stream(widths).filter(Objects::nonNull).count();
        if (set != 0 && set != 3) {
            throw new LeafConfigurationException("leaf.snowflake.layout.time-bits", "and leaf.snowflake.layout."
                    + "worker-bits and .sequence-bits go together: " + set + " of the 3 are set.",
                    "Set all three (they add up to 63), or none to keep the preset's.");
        }
        int timeBits = set == 3 ? widths[0] : preset.timeBits();
        int workerBits = set == 3 ? widths[1] : preset.workerBits();
        int sequenceBits = set == 3 ? widths[2] : preset.sequenceBits();
        SnowflakeLayout.Unit unit = timeUnit == null || timeUnit.isBlank() ? preset.unit() : unit(timeUnit);
        if (twepoch != null && epoch != null) {
            throw new LeafConfigurationException("leaf.snowflake.epoch", "and leaf.snowflake.twepoch are both set.",
                    "Keep one: epoch as an ISO date, or twepoch in ms.");
        }
        long epochMillis = twepoch != null ? twepoch
                : epoch != null ? epoch.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli() : preset.twepoch();
        try {
            return new SnowflakeLayout(timeBits, workerBits, sequenceBits, unit, epochMillis);
        } catch (IllegalArgumentException e) {
            throw new LeafConfigurationException("leaf.snowflake.layout.time-bits", "with .worker-bits and "
                    + ".sequence-bits gives no layout: " + e.getMessage() + ".",
                    "Choose widths of at least 1 bit that add up to 63, the worker field at most 31.");
        }
    }

    private static SnowflakeLayout.Unit unit(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "ms", "millis", "milliseconds" -> SnowflakeLayout.Unit.MILLISECONDS;
            case "s", "seconds" -> SnowflakeLayout.Unit.SECONDS;
            default -> throw new LeafConfigurationException("leaf.snowflake.time-unit", "is '" + text
                    + "', which is no unit of the time field.", "Use ms (Leaf) or s (uid-generator).");
        };
    }

    /**
     * {@code leaf.snowflake.layout.*}; {@code leaf.snowflake.layout=uid-generator} alone sets the preset.
     *
     * @param preset {@code leaf} (41/10/12 ms since 2010-11-04) or {@code uid-generator}
     *     (31/20/12 s since 2016-05-20)
     * @param timeBits width of the time field; with the two others (all three, adding up to 63), replaces
     *     the preset's
     * @param workerBits width of the worker id
     * @param sequenceBits width of the sequence
     */
    public record Layout(
            @DefaultValue("leaf") String preset,
            Integer timeBits,
            Integer workerBits,
            Integer sequenceBits) {

        public Layout {
            LeafValues.requireBetweenIfSet("leaf.snowflake.layout.time-bits", timeBits, 1, 63);
            LeafValues.requireBetweenIfSet("leaf.snowflake.layout.worker-bits", workerBits, 1, 63);
            LeafValues.requireBetweenIfSet("leaf.snowflake.layout.sequence-bits", sequenceBits, 1, 63);
        }

        /** The preset's layout. */
        public SnowflakeLayout presetLayout() {
            return switch (preset == null ? "leaf" : preset.strip().toLowerCase(Locale.ROOT).replace('_', '-')) {
                case "leaf" -> SnowflakeLayout.leafDefault();
                case "uid-generator" -> SnowflakeLayout.uidGenerator();
                default -> throw new LeafConfigurationException("leaf.snowflake.layout", "is '" + preset
                        + "', which is no preset.", "Use leaf (41/10/12 ms) or uid-generator (31/20/12 s), or set "
                        + "leaf.snowflake.layout.time-bits, .worker-bits and .sequence-bits.");
            };
        }
    }

    /**
     * @param allowFewWorkerBits accept the {@code disposable} mode with 10 worker bits or fewer, where
     *     every start uses one of at most 1,024 ids for good
     */
    public record Disposable(@DefaultValue("false") boolean allowFewWorkerBits) {}

    /**
     * @param podName the pod name whose StatefulSet ordinal ({@code name-N}) gives the worker id; empty
     *     means the {@code HOSTNAME} environment variable, which Kubernetes sets to it
     * @param offset added to the ordinal, so that several StatefulSets share one layout's worker ids
     *     (one takes 0..9, the next 10..19…); ordinal + offset must be at most the layout's largest
     *     worker id
     */
    public record Kubernetes(
            String podName,
            @DefaultValue("0") int offset) {

        public Kubernetes {
            LeafValues.requireBetween("leaf.snowflake.kubernetes.offset", offset, 0, Integer.MAX_VALUE);
        }
    }

    /**
     * @param address ZooKeeper connect string, for the zk modes
     * @param sessionTimeout ZooKeeper session timeout
     * @param connectTimeout how long a start waits to reach ZooKeeper before using the cache file
     *     ({@code zk_normal}) or failing ({@code zk_recycle})
     * @param leafCacheDir the {@code java.io.tmpdir} Meituan Leaf ran with (its cache file is there);
     *     empty means this JVM's. Read only by {@code zk_normal} when ZooKeeper is down at start and
     *     there is no cache file of ours
     */
    public record Zk(
            String address,
            @DefaultValue("15s") Duration sessionTimeout,
            @DefaultValue("3s") Duration connectTimeout,
            String leafCacheDir) {}

    /**
     * @param lease a {@code zk_recycle} id whose heartbeat is older than this goes back to the pool; at
     *     least 2 x the report interval + 10 s
     * @param sweepInterval how often each instance looks for such ids
     */
    public record Recycle(
            @DefaultValue("30s") Duration lease,
            @DefaultValue("5s") Duration sweepInterval) {}

    /**
     * @param lease a {@code redis} lease not renewed for this long runs out and the id is free; also how
     *     long takers wait after Redis may have lost the leases (a FLUSHALL, a restart, a failover). At
     *     least 2 x the report interval + 10 s, and the same on every instance
     * @param keyPrefix the prefix of the pool's keys in Redis; empty means {@code leaf:snowflake:{leaf.name}:}
     *     (the braces are a Redis Cluster hash tag: every key of one pool in one slot)
     */
    public record Redis(
            @DefaultValue("30s") Duration lease,
            @DefaultValue("") String keyPrefix) {

        public Redis {
            LeafValues.requirePositive("leaf.snowflake.redis.lease", lease);
            if (keyPrefix != null && !keyPrefix.isEmpty() && keyPrefix.isBlank()) {
                throw new LeafConfigurationException("leaf.snowflake.redis.key-prefix", "is blank.",
                        "Leave it empty for leaf:snowflake:{leaf.name}:, or give a prefix such as leaf:ids:.");
            }
        }
    }

    /**
     * @param workIdMap JSON object {@code {"ip:port": workerId}}, as in Leaf
     * @param workerId used when the map has no entry for this instance; at most the layout's
     *     largest worker id (1023 with Leaf's 10 bits), checked with the layout
     */
    public record Local(
            @DefaultValue("{}") String workIdMap,
            @DefaultValue("0") int workerId) {

        public Local {
            LeafValues.requireBetween("leaf.snowflake.local.worker-id", workerId, 0, Integer.MAX_VALUE);
        }
    }
}
