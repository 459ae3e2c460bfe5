package org.leafid.core.segment;

import java.time.Duration;

/**
 * How every tag's buffer behaves.
 *
 * @param stepPolicy the dynamic step rule
 * @param loadWait how long a caller waits for the next block when the current one is spent
 * @param loadListener told about every block load (metrics)
 * @param wentBackSkipBlocks how many blocks a generator leaves unused above the end of what it reserved
 *     when it finds its row went back below that end: what other servers may have reserved since its
 *     last reservation, which it cannot see
 * @param witness where every block is recorded before it is served, outside the store, and what a
 *     generator's start reads: nothing below it is served again ({@link ReservationWitness#NONE}: none)
 */
public record SegmentSettings(StepPolicy stepPolicy, Duration loadWait, SegmentLoadListener loadListener,
        long wentBackSkipBlocks, ReservationWitness witness) {

    /** Blocks skipped above a row that went back, unless configured otherwise. */
    public static final long DEFAULT_WENT_BACK_SKIP_BLOCKS = 1000;

    public SegmentSettings {
        if (loadWait.isNegative()) {
            throw new IllegalArgumentException("loadWait must not be negative: " + loadWait);
        }
        if (wentBackSkipBlocks < 0) {
            throw new IllegalArgumentException("wentBackSkipBlocks must not be negative: " + wentBackSkipBlocks);
        }
    }

    /** Settings without a witness. */
    public SegmentSettings(StepPolicy stepPolicy, Duration loadWait, SegmentLoadListener loadListener,
            long wentBackSkipBlocks) {
        this(stepPolicy, loadWait, loadListener, wentBackSkipBlocks, ReservationWitness.NONE);
    }

    /** Settings that skip {@link #DEFAULT_WENT_BACK_SKIP_BLOCKS} above a row that went back. */
    public SegmentSettings(StepPolicy stepPolicy, Duration loadWait, SegmentLoadListener loadListener) {
        this(stepPolicy, loadWait, loadListener, DEFAULT_WENT_BACK_SKIP_BLOCKS);
    }

    /** Settings whose loads nobody listens to. */
    public SegmentSettings(StepPolicy stepPolicy, Duration loadWait) {
        this(stepPolicy, loadWait, SegmentLoadListener.NONE);
    }
}
