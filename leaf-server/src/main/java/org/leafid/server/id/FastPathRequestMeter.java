package org.leafid.server.id;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Records the requests {@link IdFastPathValve} answers into Spring Boot's
 * {@code http_server_requests_seconds}, with the labels Boot's own observation gives them
 * ({@code error}, {@code exception}, {@code method}, {@code outcome}, {@code status}, {@code uri}),
 * so a dashboard or alert over it sees the same series as before the fast path. The 200 timer of
 * each endpoint is bound once; other statuses are looked up (they are rare, and a handful).
 * Boot's {@code http_server_requests_active_seconds} (requests in flight) does not count them.
 */
final class FastPathRequestMeter {

    private static final String NONE = "none";

    private final Supplier<MeterRegistry> registry;
    /** False when {@code management.observations.enable.http.server.requests=false}: nothing recorded. */
    private final boolean enabled;
    private final ConcurrentMap<Key, Timer> timers = new ConcurrentHashMap<>();

    private record Key(String uri, int status, String exception) {}

    /** @param registry asked for the registry at the first {@link #endpoint}, not before */
    FastPathRequestMeter(Supplier<MeterRegistry> registry, boolean enabled) {
        this.registry = registry;
        this.enabled = enabled;
    }

    /** A recorder for one endpoint, its 200 timer bound now. */
    Endpoint endpoint(String uriTemplate) {
        return new Endpoint(uriTemplate, enabled ? timer(new Key(uriTemplate, 200, NONE)) : null);
    }

    private Timer timer(Key key) {
        return timers.computeIfAbsent(key, k -> Timer.builder("http.server.requests")
                .description("Duration of HTTP server request handling")
                .tags(Tags.of("error", k.exception(), "exception", k.exception(), "method", "GET",
                        "outcome", outcome(k.status()), "status", Integer.toString(k.status()), "uri", k.uri()))
                .register(registry.get()));
    }

    /** Boot's {@code outcome} label: the status class's name. */
    static String outcome(int status) {
        return switch (status / 100) {
            case 1 -> "INFORMATIONAL";
            case 2 -> "SUCCESS";
            case 3 -> "REDIRECTION";
            case 4 -> "CLIENT_ERROR";
            case 5 -> "SERVER_ERROR";
            default -> "UNKNOWN";
        };
    }

    /** The recorder of one endpoint. */
    final class Endpoint {

        private final String uri;
        private final Timer ok;

        private Endpoint(String uri, Timer ok) {
            this.uri = uri;
            this.ok = ok;
        }

        /**
         * @param unhandled the exception no handler answered (Tomcat then answers 500), or null;
         *     exceptions the problem handler answered are not labelled, as in Boot's observation
         */
        void record(long startedNanos, int status, Throwable unhandled) {
            if (!enabled) {
                return;
            }
            long elapsed = System.nanoTime() - startedNanos;
            Timer timer = status == 200 && unhandled == null ? ok
                    : timer(new Key(uri, status, unhandled == null ? NONE : unhandled.getClass().getSimpleName()));
            timer.record(elapsed, TimeUnit.NANOSECONDS);
        }
    }
}
