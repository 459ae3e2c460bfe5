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
 * @param reportInterval how often the time reservation is renewed; it reaches 2 x this ahead
 * @param maxStartWait how long a start waits for the clock to pass a recorded reservation; keep it at
 *     least 2 x the report interval, so a restart right after a crash waits instead of being refused
 * @param maxBackwardsWait a clock step back up to this is waited out; more is refused
 */
@ConfigurationProperties("leaf.snowflake")
public record SnowflakeProperties(
        @DefaultValue("true") boolean enable,
        WorkerIdMode mode,
        Integer port,
        String ip,
        Long twepoch,
        LocalDate epoch,
        @DefaultValue Layout layout,
        String timeUnit,
        @DefaultValue("false") boolean borrowAhead,
        @DefaultValue("3s") Duration reportInterval,
        @DefaultValue("10s") Duration maxStartWait,
        @DefaultValue("5ms") Duration maxBackwardsWait) {

    /** {@code mode} as set, null when unset: {@code WorkerIdModeChoice} gives the mode in effect. */
    public SnowflakeProperties {
        LeafValues.requireBetweenIfSet("leaf.snowflake.port", port, 1, 65535);
        LeafValues.requireBetweenIfSet("leaf.snowflake.twepoch", twepoch, 0, Long.MAX_VALUE);
        LeafValues.requirePositive("leaf.snowflake.report-interval", reportInterval);
        LeafValues.requireNotNegative("leaf.snowflake.max-start-wait", maxStartWait);
        LeafValues.requireNotNegative("leaf.snowflake.max-backwards-wait", maxBackwardsWait);
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
}
