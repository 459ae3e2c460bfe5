package org.leafid.core.segment;

import java.time.Duration;

/**
 * Leaf's dynamic step: aim at one load per {@code target} (15 minutes) per tag. A block that
 * lasted less than the target doubles the step (up to {@code maxStep}); one that lasted more
 * than twice the target halves it (not below the row's step).
 */
public record StepPolicy(long maxStep, Duration target) {

    public static final long DEFAULT_MAX_STEP = 1_000_000;
    public static final Duration DEFAULT_TARGET = Duration.ofMinutes(15);

    public StepPolicy {
        if (maxStep < 1) {
            throw new IllegalArgumentException("maxStep must be at least 1: " + maxStep);
        }
        if (target.isNegative() || target.isZero()) {
            throw new IllegalArgumentException("target must be positive: " + target);
        }
    }

    public static StepPolicy leafDefault() {
        return new StepPolicy(DEFAULT_MAX_STEP, DEFAULT_TARGET);
    }

    /**
     * The step to ask for next.
     *
     * @param step the step of the block just used
     * @param rowStep the row's own step, the minimum
     * @param lasted how long that block lasted (time between its load and this one)
     */
    public long next(long step, long rowStep, Duration lasted) {
        if (lasted.compareTo(target) < 0) {
            long doubled = step * 2;
            return doubled <= maxStep ? doubled : step;
        }
        if (lasted.compareTo(target.multipliedBy(2)) < 0) {
            return step;
        }
        long halved = step / 2;
        return halved >= rowStep ? halved : step;
    }
}
