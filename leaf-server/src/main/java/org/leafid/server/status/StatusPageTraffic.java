package org.leafid.server.status;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Statistic;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.leafid.core.DaemonThreads;
import org.springframework.context.SmartLifecycle;

/**
 * The status page's last minute: IDs issued per second and 4xx/5xx answers of the API, from the
 * meters that exist anyway ({@code leaf_ids_issued_total}, {@code leaf_http_responses_total}, so
 * the page and the dashboard count the same answers).
 * A daemon task samples their totals every few seconds; the page compares the totals now with the
 * oldest sample of the last minute. Nothing is done on the ID hot path. Also remembers when the
 * server started, for the uptime.
 */
final class StatusPageTraffic implements SmartLifecycle {

    static final Duration WINDOW = Duration.ofMinutes(1);

    /** Totals read from the meters at one time. */
    record Sample(Instant at, double ids, double clientErrors, double serverErrors) {}

    /**
     * What happened over the last minute, or over {@code window} when the server is younger.
     *
     * @param idsPerSecond IDs issued per second, both modes, batches counted per ID
     */
    record LastMinute(Duration window, double idsPerSecond, long clientErrors, long serverErrors) {}

    private final MeterRegistry registry;
    private final InstantSource clock;
    private final Duration sampleEvery;
    /** Oldest first, none older than {@link #WINDOW}; guarded by itself. */
    private final Deque<Sample> samples = new ArrayDeque<>();
    private volatile Instant startedAt;
    private volatile ScheduledExecutorService sampler;

    StatusPageTraffic(MeterRegistry registry, InstantSource clock, Duration sampleEvery) {
        this.registry = registry;
        this.clock = clock;
        this.sampleEvery = sampleEvery;
    }

    @Override
    public synchronized void start() {
        if (sampler != null) {
            return;
        }
        startedAt = clock.instant();
        sample();
        sampler = Executors.newSingleThreadScheduledExecutor(new DaemonThreads("leaf-status-sampler"));
        long every = sampleEvery.toMillis();
        sampler.scheduleAtFixedRate(this::sample, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (sampler != null) {
            sampler.shutdownNow();
            sampler = null;
        }
    }

    @Override
    public boolean isRunning() {
        return sampler != null;
    }

    /** When the server started, or null before. */
    Instant startedAt() {
        return startedAt;
    }

    /** Records the totals now and forgets the samples older than the window. */
    void sample() {
        Sample now = read();
        synchronized (samples) {
            samples.addLast(now);
            Instant windowStart = now.at().minus(WINDOW);
            while (samples.peekFirst().at().isBefore(windowStart)) {
                samples.removeFirst();
            }
        }
    }

    /** The totals now against the oldest sample of the last minute. */
    LastMinute lastMinute() {
        Sample now = read();
        Sample baseline;
        synchronized (samples) {
            Instant windowStart = now.at().minus(WINDOW);
            baseline = samples.stream().filter(s -> !s.at().isBefore(windowStart)).findFirst().orElse(now);
        }
        Duration window = Duration.between(baseline.at(), now.at());
        double seconds = window.toMillis() / 1000.0;
        // A tag removed takes its counter along, so a total can drop: never show less than nothing.
        double ids = Math.max(0, now.ids() - baseline.ids());
        return new LastMinute(window, seconds <= 0 ? 0 : ids / seconds,
                (long) Math.max(0, now.clientErrors() - baseline.clientErrors()),
                (long) Math.max(0, now.serverErrors() - baseline.serverErrors()));
    }

    private Sample read() {
        double ids = 0;
        for (Meter meter : registry.find("leaf.ids.issued").meters()) {
            for (Measurement measurement : meter.measure()) {
                if (measurement.getStatistic() == Statistic.COUNT) {
                    ids += measurement.getValue();
                }
            }
        }
        return new Sample(clock.instant(), ids, responses("4xx"), responses("5xx"));
    }

    private double responses(String statusClass) {
        Counter counter = registry.find("leaf.http.responses").tag("status", statusClass).counter();
        return counter == null ? 0 : counter.count();
    }
}
