package org.leafid.core;

/** A bounded wait was interrupted; the thread's interrupt flag has been restored. */
public final class LeafInterruptedException extends LeafException {

    public LeafInterruptedException(String whatWasAwaited, InterruptedException cause) {
        super("Interrupted while waiting for " + whatWasAwaited, cause);
        Thread.currentThread().interrupt();
    }
}
