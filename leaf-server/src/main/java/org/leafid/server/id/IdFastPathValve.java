package org.leafid.server.id;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;
import org.apache.catalina.connector.ClientAbortException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.leafid.server.problem.AcceptHeaderFilter;
import org.leafid.server.problem.Keys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Answers the ordinary {@code GET /api/segment/get/{tag}}, {@code GET /api/snowflake/get/{key}} and
 * {@code GET /api/shard/get/{appId}} first in the web application's Tomcat pipeline, ahead of the servlet filters and Spring MVC:
 * the dispatcher's handler mapping, argument resolution, the filters and Boot's request observation
 * cost more than issuing the ID, and building the filter chain and the authenticator valve another
 * 3 % (profiles and figures in docs/benchmark-history.md). It runs the endpoints' own code
 * ({@link IdGetCall}) on the request and response facades the servlets would get, so the answer,
 * {@code leaf_id_requests_seconds} and the refusals are the controllers':
 *
 * <ol>
 *   <li>Only a GET whose key is valid as it stands in the URI (no %-escapes, nothing after it) and
 *       whose {@code Accept} headers parse is taken (a shard app id that is a valid key but not a
 *       number in 0..255 is taken too, and refused by the call as Spring MVC would refuse it); anything else goes on down the pipeline, where
 *       the filters and Spring MVC answer it as they always did (400 invalid-key, 400
 *       invalid-accept, 404, 405…).
 *   <li>A failure of the call (an unknown tag, a bad {@code count}, a store outage) is answered by
 *       Spring MVC's exception resolvers, that is by {@code problem.ProblemHandler}, as for the controller:
 *       the same problem+json, status and {@code Retry-After}; the call is not made a second time.
 *   <li>The request is counted in {@code http_server_requests_seconds} ({@link FastPathRequestMeter});
 *       {@code leaf_http_responses_total} counts it anyway (an engine valve's access log).
 * </ol>
 *
 * <p>The calls and the resolvers are looked up at the first request, not when Tomcat is made, so
 * that the web server's start does not pull the generators forward.
 */
final class IdFastPathValve extends ValveBase {

    private static final Logger log = LoggerFactory.getLogger(IdFastPathValve.class);

    private final Supplier<List<IdGetCall<?>>> calls;
    private final Supplier<HandlerExceptionResolver> problems;
    private final FastPathRequestMeter meter;
    private volatile Routes routes;

    private record Route(IdGetCall<?> call, FastPathRequestMeter.Endpoint meter) {}

    private record Routes(List<Route> list, HandlerExceptionResolver problems) {}

    IdFastPathValve(Supplier<List<IdGetCall<?>>> calls, Supplier<HandlerExceptionResolver> problems,
            FastPathRequestMeter meter) {
        super(true);
        this.calls = calls;
        this.problems = problems;
        this.meter = meter;
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        if ("GET".equals(request.getMethod())) {
            String uri = request.getRequestURI();
            int from = request.getContextPath().length();
            Routes known = routes();
            for (Route route : known.list()) {
                String prefix = route.call().pathPrefix();
                if (uri.startsWith(prefix, from)) {
                    String key = uri.substring(from + prefix.length());
                    if (Keys.isValid(key) && AcceptHeaderFilter.acceptParses(request)) {
                        serve(known.problems(), route, key, request.getRequest(), response.getResponse());
                        return;
                    }
                    break;
                }
            }
        }
        getNext().invoke(request, response);
    }

    private Routes routes() {
        Routes known = routes;
        if (known == null) {
            known = new Routes(calls.get().stream()
                    .map(call -> new Route(call, meter.endpoint(call.uriTemplate()))).toList(), problems.get());
            routes = known; // racing first requests build equal routes; any of them will do
        }
        return known;
    }

    private static void serve(HandlerExceptionResolver problems, Route route, String key,
            HttpServletRequest request, HttpServletResponse response) throws IOException {
        long started = System.nanoTime();
        try {
            route.call().serve(key, request, response);
        } catch (ClientAbortException hungUp) {
            // The caller closed the connection before the answer was written: an everyday event (a
            // client's timeout, a process stopped), nothing to act on. The IDs it was given are
            // skipped, never issued again.
            log.debug("{} closed the connection before the answer to {} was written ({})",
                    request.getRemoteAddr(), request.getRequestURI(), hungUp.getMessage());
            route.meter().record(started, response.getStatus(), hungUp);
            return;
        } catch (RuntimeException failure) {
            // Nothing is written before a call fails, so the problem answer starts clean.
            if (problems.resolveException(request, response, null, failure) == null) {
                route.meter().record(started, HttpServletResponse.SC_INTERNAL_SERVER_ERROR, failure);
                throw failure;
            }
        }
        route.meter().record(started, response.getStatus(), null);
    }
}
