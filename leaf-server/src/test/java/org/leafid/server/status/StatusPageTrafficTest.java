package org.leafid.server.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.leafid.server.metrics.HttpResponseMeters;

/** The last minute, from meters, with a clock the test moves: no sleeps, no server. */
class StatusPageTrafficTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    private final InstantSource clock = now::get;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final HttpResponseMeters responses = new HttpResponseMeters(registry);

    @Test
    void countsWhatHappenedSinceTheOldestSampleOfTheLastMinute() {
        StatusPageTraffic traffic = new StatusPageTraffic(registry, clock, Duration.ofSeconds(5));
        Counter ids = Counter.builder("leaf.ids.issued").tag("mode", "snowflake").register(registry);
        ids.increment(1000); // before the window: not counted once the window has moved past it
        traffic.sample();
        for (int second = 5; second <= 90; second += 5) {
            advance(5);
            ids.increment(50);
            responses.answered(404);
            responses.answered(503);
            responses.answered(200);
            traffic.sample();
        }

        StatusPageTraffic.LastMinute lastMinute = traffic.lastMinute();

        assertThat(lastMinute.window()).isEqualTo(Duration.ofSeconds(60));
        assertThat(lastMinute.idsPerSecond()).isEqualTo(10.0); // 12 samples of 50 over 60 s
        assertThat(lastMinute.clientErrors()).isEqualTo(12);
        assertThat(lastMinute.serverErrors()).isEqualTo(12);
    }

    @Test
    void aYoungServerCountsFromItsStartAndAFallingTotalIsNoNegativeRate() {
        StatusPageTraffic traffic = new StatusPageTraffic(registry, clock, Duration.ofSeconds(5));
        Counter ids = Counter.builder("leaf.ids.issued").tag("key", "a").register(registry);
        ids.increment(30);
        traffic.sample();
        advance(10);
        registry.remove(ids); // a tag removed from leaf_alloc takes its counter along

        StatusPageTraffic.LastMinute lastMinute = traffic.lastMinute();

        assertThat(lastMinute.window()).isEqualTo(Duration.ofSeconds(10));
        assertThat(lastMinute.idsPerSecond()).isZero();
    }

    private void advance(int seconds) {
        now.set(now.get().plusSeconds(seconds));
    }
}
