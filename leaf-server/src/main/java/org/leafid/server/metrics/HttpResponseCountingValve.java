package org.leafid.server.metrics;

import jakarta.servlet.ServletException;
import java.io.IOException;
import org.apache.catalina.AccessLog;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;

/**
 * Counts every answer into {@link HttpResponseMeters} as Tomcat's access log sees it: once per
 * request, with the final status, including requests Tomcat refuses before any filter or servlet
 * runs (an engine's access logs are told about those too). {@code /actuator} is left out: a
 * readiness probe's 503 while not ready is the probe doing its job, and scrapes are not traffic.
 */
final class HttpResponseCountingValve extends ValveBase implements AccessLog {

    private final HttpResponseMeters meters;

    HttpResponseCountingValve(HttpResponseMeters meters) {
        super(true); // passes requests on untouched, so asynchronous ones are fine
        this.meters = meters;
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        getNext().invoke(request, response);
    }

    @Override
    public void log(Request request, Response response, long time) {
        String uri = request.getRequestURI();
        if (uri == null || !uri.startsWith("/actuator")) {
            meters.answered(response.getStatus());
        }
    }

    @Override
    public void setRequestAttributesEnabled(boolean requestAttributesEnabled) {
        // Reads no request attributes.
    }

    @Override
    public boolean getRequestAttributesEnabled() {
        return false;
    }
}
