package org.leafid.autoconfigure.segment;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.core.Durations;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code leaf.segment.*}.
 *
 * @param enable segment mode on or off
 * @param refreshInterval how often the tag list is re-read from {@code leaf_alloc}
 * @param maxStep the dynamic step never doubles past this
 * @param loadWait how long a request waits for the next block when the current one is spent,
 *     before a 503
 */
@Validated
@ConfigurationProperties("leaf.segment")
public record SegmentProperties(
        @DefaultValue("true") boolean enable,
        @DefaultValue("60s") Duration refreshInterval,
        @DefaultValue("1000000") @Min(1) @Max(Integer.MAX_VALUE) long maxStep,
        @DefaultValue("1s") Duration loadWait) {

    public SegmentProperties {
        requirePositive("leaf.segment.refresh-interval", refreshInterval);
        requirePositive("leaf.segment.load-wait", loadWait);
    }

    public static void requirePositive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new LeafConfigurationException(key, "is " + Durations.format(value) + " but must be positive.",
                    "Set it to a duration such as 500ms, 30s or 2m.");
        }
    }

    public static void requireNotNegative(String key, Duration value) {
        if (value.isNegative()) {
            throw new LeafConfigurationException(key, "is " + Durations.format(value) + " but must not be negative.",
                    "Set it to 0 or a duration such as 500ms, 30s or 2m.");
        }
    }
}
