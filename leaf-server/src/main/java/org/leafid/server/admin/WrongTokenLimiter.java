package org.leafid.server.admin;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Wrong admin tokens per client address: once an address has sent {@link #LIMIT} within
 * {@link #WINDOW}, every admin request from it is answered 429 until that minute is over, so the
 * token cannot be guessed at the speed of the network. The right token from any other address
 * still works. A fixed window per address, from its first wrong token: enough to bound guessing,
 * and one small record per address that is forgotten when its window ends.
 */
final class WrongTokenLimiter {

    static final int LIMIT = 20;
    static final Duration WINDOW = Duration.ofMinutes(1);
    /** Addresses tracked at most; past it, ended windows are dropped, then the oldest (bounded memory under a spray). */
    private static final int MAX_ADDRESSES = 10_000;

    private final InstantSource clock;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    private record Window(long startMillis, int wrong) {}

    WrongTokenLimiter(InstantSource clock) {
        this.clock = clock;
    }

    /** Seconds until {@code address} may try again; 0 when it may now. */
    long blockedForSeconds(String address) {
        Window window = windows.get(address);
        if (window == null || window.wrong() < LIMIT) {
            return 0;
        }
        long left = window.startMillis() + WINDOW.toMillis() - clock.millis();
        if (left <= 0) {
            windows.remove(address, window);
            return 0;
        }
        return (left + 999) / 1000;
    }

    /** Counts one wrong token from {@code address}. */
    void wrong(String address) {
        long now = clock.millis();
        if (windows.size() >= MAX_ADDRESSES && !windows.containsKey(address)) {
            forgetEnded(now);
        }
        windows.compute(address, (key, window) -> window == null || now - window.startMillis() >= WINDOW.toMillis()
                ? new Window(now, 1) : new Window(window.startMillis(), window.wrong() + 1));
    }

    private void forgetEnded(long now) {
        windows.values().removeIf(window -> now - window.startMillis() >= WINDOW.toMillis());
        Iterator<String> oldest = windows.keySet().iterator();
        while (windows.size() >= MAX_ADDRESSES && oldest.hasNext()) {
            oldest.next();
            oldest.remove();
        }
    }
}
