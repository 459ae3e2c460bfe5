package org.leafid.server.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code leaf.snowflake.*}.
 *
 * @param port the port that, with the IP, names this instance; empty means {@code server.port}
 * @param ip the IP that names this instance; empty means the first non-loopback IPv4 address
 * @param reportInterval how often the time reservation is renewed; it reaches 2 x this ahead
 * @param maxStartWait how long a start waits for the clock to pass a recorded reservation
 * @param maxBackwardsWait a clock step back up to this is waited out; more is refused
 */
@Validated
@ConfigurationProperties("leaf.snowflake")
public record SnowflakeProperties(
        @DefaultValue("true") boolean enable,
        @DefaultValue("local") @NotNull WorkerIdMode mode,
        @DefaultValue @Valid Zk zk,
        @Min(1) @Max(65535) Integer port,
        String ip,
        @DefaultValue("1288834974657") @Min(0) long twepoch,
        @DefaultValue @Valid Local local,
        @DefaultValue("3s") Duration reportInterval,
        @DefaultValue("5s") Duration maxStartWait,
        @DefaultValue("5ms") Duration maxBackwardsWait) {

    public SnowflakeProperties {
        SegmentProperties.requirePositive("leaf.snowflake.report-interval", reportInterval);
        if (maxStartWait.isNegative()) {
            throw new IllegalArgumentException("leaf.snowflake.max-start-wait must not be negative: " + maxStartWait);
        }
        if (maxBackwardsWait.isNegative()) {
            throw new IllegalArgumentException(
                    "leaf.snowflake.max-backwards-wait must not be negative: " + maxBackwardsWait);
        }
    }

    /** @param address ZooKeeper connect string, for the zk modes */
    public record Zk(String address) {}

    /**
     * @param workIdMap JSON object {@code {"ip:port": workerId}}, as in Leaf
     * @param workerId used when the map has no entry for this instance
     */
    public record Local(
            @DefaultValue("{}") String workIdMap,
            @DefaultValue("0") @Min(0) @Max(1023) int workerId) {}
}
