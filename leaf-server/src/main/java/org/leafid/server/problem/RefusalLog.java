package org.leafid.server.problem;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Logs refusals of one kind at most once per interval, with how many were left out since. Under
 * load an outage refuses thousands of requests a second; one line per request would bury the
 * line an operator needs and cost more than answering. Keys are Leaf's problem types, so the
 * map stays small. Public for the admin token's check, whose wrong-token warnings any caller can provoke.
 */
public final class RefusalLog {

    private final Logger log;
    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final ConcurrentMap<String, Window> windows = new ConcurrentHashMap<>();

    public RefusalLog(Logger log, long intervalMillis) {
        this(log, intervalMillis, System::nanoTime);
    }

    /** @param nanoTime a monotonic time source, injected by tests */
    RefusalLog(Logger log, long intervalMillis, LongSupplier nanoTime) {
        this.log = log;
        this.intervalNanos = intervalMillis * 1_000_000;
        this.nanoTime = nanoTime;
    }

    public void warn(String type, String message) {
        emit(type, message, false);
    }

    /** For refusals that need an operator (a tag used up, a clock out of range). */
    public void error(String type, String message) {
        emit(type, message, true);
    }

    private void emit(String type, String message, boolean error) {
        Window window = windows.computeIfAbsent(type, key -> new Window());
        long now = nanoTime.getAsLong();
        long last = window.lastLoggedNanos.get();
        if (last != Long.MIN_VALUE && now - last < intervalNanos) {
            window.suppressed.incrementAndGet();
            return;
        }
        if (!window.lastLoggedNanos.compareAndSet(last, now)) {
            window.suppressed.incrementAndGet(); // another thread logs this window
            return;
        }
        long left = window.suppressed.getAndSet(0);
        String line = left > 0 ? message + " (" + left + " more refusals of this kind in the last "
                + intervalNanos / 1_000_000_000 + " s not logged)" : message;
        if (error) {
            log.error(line);
        } else {
            log.warn(line);
        }
    }

    private static final class Window {
        final AtomicLong lastLoggedNanos = new AtomicLong(Long.MIN_VALUE);
        final AtomicLong suppressed = new AtomicLong();
    }
}
