package org.leafid.core.segment;

import java.time.Duration;

/**
 * How every tag's buffer behaves.
 *
 * @param stepPolicy the dynamic step rule
 * @param loadWait how long a caller waits for the next block when the current one is spent
 * @param loadListener told about every block load (metrics)
 */
public record SegmentSettings(StepPolicy stepPolicy, Duration loadWait, SegmentLoadListener loadListener) {

    public SegmentSettings {
        if (loadWait.isNegative()) {
            throw new IllegalArgumentException("loadWait must not be negative: " + loadWait);
        }
    }

    /** Settings whose loads nobody listens to. */
    public SegmentSettings(StepPolicy stepPolicy, Duration loadWait) {
        this(stepPolicy, loadWait, SegmentLoadListener.NONE);
    }
}
