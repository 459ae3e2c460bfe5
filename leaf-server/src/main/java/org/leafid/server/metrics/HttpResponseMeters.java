package org.leafid.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code leaf_http_responses_total{status="2xx"|"3xx"|"4xx"|"5xx"}}: every answer the server gave,
 * by status class, all four at 0 from the start. Spring's {@code http_server_requests} carries the
 * status too, but a series of it appears only with the first answer of that status (an error
 * panel stays empty, not 0, until the first error) and it misses the answers given before Spring
 * sees a request (Tomcat's refusals, the Accept header filter).
 */
public final class HttpResponseMeters {

    /** Index: status / 100. 1xx (interim, never final here) and out-of-range statuses are not counted. */
    private final Counter[] byClass = new Counter[6];

    public HttpResponseMeters(MeterRegistry registry) {
        for (int statusClass = 2; statusClass <= 5; statusClass++) {
            byClass[statusClass] = Counter.builder("leaf.http.responses")
                    .description("HTTP answers given, by status class")
                    .tag("status", statusClass + "xx")
                    .register(registry);
        }
    }

    /** Counts one answer with this status. */
    public void answered(int status) {
        int statusClass = status / 100;
        if (statusClass >= 2 && statusClass <= 5) {
            byClass[statusClass].increment();
        }
    }
}
