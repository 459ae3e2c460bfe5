package org.leafid.core.format;

/**
 * Runs a task when the format's clock reaches a time: how a format learns that the stretch of time
 * its strings were rendered for has ended, and that the next period is a minute away, without
 * reading the clock for every string (a clock read costs about as much as the rest of a string).
 */
@FunctionalInterface
public interface BoundaryTimer {

    /**
     * Runs {@code task} once, when the clock reads {@code epochMillis} or soon after. A timer that
     * fires early does no harm: the format reads the clock then, and waits for the same boundary again.
     */
    void at(long epochMillis, Runnable task);
}
