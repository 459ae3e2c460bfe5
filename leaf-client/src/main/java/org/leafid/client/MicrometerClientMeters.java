package org.leafid.client;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.IntSupplier;
import java.util.function.ToDoubleFunction;

/**
 * The client's meters in a Micrometer registry (Prometheus names):
 * {@code leaf_client_fetches_total{mode,outcome}} (outcome {@code ok} or {@code refused}),
 * {@code leaf_client_ids_fetched_total{mode}}, {@code leaf_client_buffered{mode,key}},
 * {@code leaf_client_server_failures_total{server,reason}},
 * {@code leaf_client_bad_answers_total{server,check}}, {@code leaf_client_ranges_total{mode}} (runs of
 * consecutive IDs in answers as ranges) and {@code leaf_client_servers_up}.
 */
final class MicrometerClientMeters implements ClientMeters {

    private final MeterRegistry registry;
    private final Counter ok;
    private final Counter refused;
    private final Counter ids;

    MicrometerClientMeters(Object registry) {
        this((MeterRegistry) registry, null, null);
    }

    private MicrometerClientMeters(MeterRegistry registry, String mode, String key) {
        this.registry = registry;
        if (mode == null) { // the client's own: server meters only
            this.ok = null;
            this.refused = null;
            this.ids = null;
            return;
        }
        String tagMode = mode;
        this.ok = Counter.builder("leaf.client.fetches").tag("mode", tagMode).tag("outcome", "ok")
                .description("Batches fetched from a Leaf server").register(registry);
        this.refused = Counter.builder("leaf.client.fetches").tag("mode", tagMode).tag("outcome", "refused")
                .description("Batches fetched from a Leaf server").register(registry);
        this.ids = Counter.builder("leaf.client.ids.fetched").tag("mode", tagMode)
                .description("IDs received from Leaf servers").register(registry);
    }

    @Override
    public ClientMeters forSource(String mode, String key, IntSupplier buffered) {
        Gauge.builder("leaf.client.buffered", buffered, IntSupplier::getAsInt).tag("mode", mode).tag("key", key)
                .description("IDs in the client's buffer, served without a call").register(registry);
        return new MicrometerClientMeters(registry, mode, key);
    }

    @Override
    public void fetched(int count) {
        ok.increment();
        ids.increment(count);
    }

    @Override
    public void refused() {
        refused.increment();
    }

    @Override
    public void rangesReceived(String mode, int ranges) {
        Counter.builder("leaf.client.ranges").tag("mode", mode)
                .description("Runs of consecutive IDs received in answers as ranges").register(registry)
                .increment(ranges);
    }

    @Override
    public void serverFailed(String server, String reason) {
        Counter.builder("leaf.client.server.failures").tag("server", server).tag("reason", reason)
                .description("Requests to a Leaf server that failed: connection, timeout, 5xx, redirect, bad answer")
                .register(registry).increment();
    }

    @Override
    public void badAnswer(String server, String check) {
        Counter.builder("leaf.client.bad.answers").tag("server", server).tag("check", check)
                .description("Answers of a Leaf server refused by a check before any ID of them was handed out")
                .register(registry).increment();
    }

    @Override
    public <T> void servers(T pool, ToDoubleFunction<T> up) {
        Gauge.builder("leaf.client.servers.up", pool, up).description("Leaf servers not backing off after a failure")
                .register(registry);
    }
}
