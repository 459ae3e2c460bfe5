package org.leafid.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * {@code leaf_id_requests_seconds{mode}}: the latency of the get endpoints, as a histogram. Bound
 * once, so a request records into a field, with no look-up.
 */
public final class IdRequestTimers {

    private final Timer segment;
    private final Timer snowflake;
    private final Timer shard;
    private final Timer format;

    public IdRequestTimers(MeterRegistry registry) {
        this.segment = timer(registry, "segment");
        this.snowflake = timer(registry, "snowflake");
        this.shard = timer(registry, "shard");
        this.format = timer(registry, "format");
    }

    public Timer segment() {
        return segment;
    }

    public Timer snowflake() {
        return snowflake;
    }

    public Timer shard() {
        return shard;
    }

    public Timer format() {
        return format;
    }

    private static Timer timer(MeterRegistry registry, String mode) {
        return Timer.builder("leaf.id.requests")
                .description("Time to answer a get call, batches included")
                .tag("mode", mode)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(50_000))
                .maximumExpectedValue(Duration.ofSeconds(5))
                .register(registry);
    }
}
