package org.leafid.server.fault;

import java.time.Duration;
import java.util.function.Predicate;
import org.leafid.server.fault.LoadRun.Mode;
import org.leafid.server.fault.LoadRun.Outcome;

/** A moment to wait for: the first matching answer after the watch was set. */
final class LoadWatch {

    private final String instance;
    private final Mode mode;
    private final Predicate<Outcome> match;
    private final long sinceNanos = System.nanoTime();
    private volatile Outcome first;

    LoadWatch(String instance, Mode mode, Predicate<Outcome> match) {
        this.instance = instance;
        this.mode = mode;
        this.match = match;
    }

    void offer(Outcome outcome) {
        if (first == null && outcome.startedNanos() >= sinceNanos
                && (instance == null || instance.equals(outcome.instance()))
                && (mode == null || mode == outcome.mode()) && match.test(outcome)) {
            synchronized (this) {
                if (first == null) {
                    first = outcome;
                    notifyAll();
                }
            }
        }
    }

    /** Milliseconds from setting the watch to the first match; fails after {@code atMost}. */
    synchronized long awaitMillis(Duration atMost, String what) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (first == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("within " + atMost + ": no " + what);
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return (first.doneNanos() - sinceNanos) / 1_000_000;
    }

    Outcome first() {
        return first;
    }

    long sinceNanos() {
        return sinceNanos;
    }
}
