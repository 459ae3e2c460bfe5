package org.leafid.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ServerPoolTest {

    private static final long MS = Duration.ofMillis(1).toNanos();
    private final AtomicLong now = new AtomicLong(-5_000 * MS); // nanoTime may be negative
    private final ServerPool pool = new ServerPool(List.of("http://a", "http://b"), now::get);

    @Test
    void thePreferredServerIsAskedUntilItFailsThenTheNext() {
        assertThat(pool.pick().url).isEqualTo("http://a");
        assertThat(pool.pick().url).isEqualTo("http://a");
        pool.failed(pool.pick(), -1, "connect refused");
        assertThat(pool.pick().url).isEqualTo("http://b");
        now.addAndGet(10_000 * MS); // a is up again, but b is preferred now: no switching back and forth
        assertThat(pool.pick().url).isEqualTo("http://b");
    }

    @Test
    void backOffDoublesPerFailureInARowUpToFiveSeconds() {
        ServerPool.Server a = pool.servers().get(0);
        long[] expectedMs = {250, 500, 1000, 2000, 4000, 5000, 5000};
        for (long ms : expectedMs) {
            pool.failed(a, -1, "timeout");
            assertThat(a.downUntil - now.get()).isEqualTo(ms * MS);
        }
        pool.succeeded(a);
        pool.failed(a, -1, "timeout");
        assertThat(a.downUntil - now.get()).isEqualTo(250 * MS);
    }

    @Test
    void retryAfterIsHonouredUpToAMinute() {
        ServerPool.Server a = pool.servers().get(0);
        pool.failed(a, 7, "503 store-unavailable");
        assertThat(a.downUntil - now.get()).isEqualTo(7_000 * MS);
        pool.failed(a, 3600, "503");
        assertThat(a.downUntil - now.get()).isEqualTo(60_000 * MS);
    }

    @Test
    void withEveryServerDownNoneIsPickedUntilTheFirstBackOffEnds() {
        pool.failed(pool.servers().get(0), 2, "503");
        pool.failed(pool.servers().get(1), 1, "503");
        assertThat(pool.pick()).isNull();
        assertThat(pool.retryAtNanos() - now.get()).isEqualTo(1_000 * MS);
        now.addAndGet(1_000 * MS);
        assertThat(pool.pick().url).isEqualTo("http://b");
    }
}
