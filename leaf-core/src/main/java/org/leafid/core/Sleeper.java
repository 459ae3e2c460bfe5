package org.leafid.core;

/**
 * How generators wait for time to pass. Injected next to the clock so that tests can make a
 * wait move a fake clock instead of sleeping.
 */
public interface Sleeper {

    /** Sleeps for about {@code millis} milliseconds. */
    void sleepMillis(long millis) throws InterruptedException;

    /** Waits a moment while polling the clock for its next tick; a fake clock advances here. */
    default void awaitTick() {
        Thread.onSpinWait();
    }

    /** The real thing: {@link Thread#sleep(long)} and a busy-spin hint. */
    static Sleeper system() {
        return Thread::sleep;
    }
}
