package org.leafid.autoconfigure.segment;

import java.time.Duration;
import org.leafid.autoconfigure.LeafValues;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.segment.*}.
 *
 * @param enable segment mode on or off
 * @param refreshInterval how often the tag list is re-read from {@code leaf_alloc}
 * @param maxStep the dynamic step never doubles past this
 * @param loadWait how long a request waits for the next block when the current one is spent,
 *     before a 503
 */
@ConfigurationProperties("leaf.segment")
public record SegmentProperties(
        @DefaultValue("true") boolean enable,
        @DefaultValue("60s") Duration refreshInterval,
        @DefaultValue("1000000") long maxStep,
        @DefaultValue("1s") Duration loadWait) {

    public SegmentProperties {
        LeafValues.requirePositive("leaf.segment.refresh-interval", refreshInterval);
        LeafValues.requireBetween("leaf.segment.max-step", maxStep, 1, Integer.MAX_VALUE);
        LeafValues.requirePositive("leaf.segment.load-wait", loadWait);
    }
}
