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
 * @param maxRangeBatch the largest {@code count} of a segment batch asked for as ranges (1 to
 *     100000000): a run costs the same to send whatever its length, so it may be far above
 *     {@code leaf.max-batch}, which bounds the answers written out ID by ID
 */
@ConfigurationProperties("leaf.segment")
public record SegmentProperties(
        @DefaultValue("true") boolean enable,
        @DefaultValue("60s") Duration refreshInterval,
        @DefaultValue("1000000") long maxStep,
        @DefaultValue("1s") Duration loadWait,
        @DefaultValue("1000000") int maxRangeBatch) {

    public SegmentProperties {
        LeafValues.requirePositive("leaf.segment.refresh-interval", refreshInterval);
        LeafValues.requireBetween("leaf.segment.max-step", maxStep, 1, Integer.MAX_VALUE);
        LeafValues.requirePositive("leaf.segment.load-wait", loadWait);
        LeafValues.requireBetween("leaf.segment.max-range-batch", maxRangeBatch, 1, 100_000_000);
    }
}
