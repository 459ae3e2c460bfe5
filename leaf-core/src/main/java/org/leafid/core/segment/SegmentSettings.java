package org.leafid.core.segment;

import java.time.Duration;

/**
 * How every tag's buffer behaves.
 *
 * @param stepPolicy the dynamic step rule
 * @param loadWait how long a caller waits for the next block when the current one is spent
 */
public record SegmentSettings(StepPolicy stepPolicy, Duration loadWait) {

    public SegmentSettings {
        if (loadWait.isNegative()) {
            throw new IllegalArgumentException("loadWait must not be negative: " + loadWait);
        }
    }
}
