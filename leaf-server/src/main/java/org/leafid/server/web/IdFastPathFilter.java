package org.leafid.server.web;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Enumeration;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Answers the ordinary {@code GET /api/segment/get/{tag}} and {@code GET /api/snowflake/get/{key}}
 * at the front of the filter chain, without Spring MVC: the dispatcher's handler mapping, argument
 * resolution, the other filters and Boot's request observation cost more than issuing the ID
 * (profiles in docs/perf/, figures in BENCHMARKS.md). It runs the endpoints' own code
 * ({@link IdGetCall}), so the answer, {@code leaf_id_requests_seconds} and the refusals are those of
 * the controllers:
 *
 * <ol>
 *   <li>Only a GET whose key is valid as it stands in the URI (no %-escapes, nothing after it) and
 *       whose {@code Accept} headers parse is taken; anything else goes on down the chain, where
 *       Spring MVC answers it as it always did (400 invalid-key, 400 invalid-accept, 404, 405…).
 *   <li>A failure of the call (an unknown tag, a bad {@code count}, a store outage) is answered by
 *       Spring MVC's exception resolvers, that is by {@link ProblemHandler}, as for the controller:
 *       the same problem+json, status and {@code Retry-After}; the call is not made a second time.
 *   <li>The request is counted in {@code http_server_requests_seconds} ({@link FastPathRequestMeter});
 *       {@code leaf_http_responses_total} counts it anyway (a Tomcat valve).
 * </ol>
 */
final class IdFastPathFilter implements Filter {

    private final List<Route> routes;
    private final HandlerExceptionResolver problems;

    private record Route(IdGetCall call, FastPathRequestMeter.Endpoint meter) {}

    IdFastPathFilter(List<IdGetCall> calls, HandlerExceptionResolver problems, FastPathRequestMeter meter) {
        this.routes = calls.stream().map(call -> new Route(call, meter.endpoint(call.uriTemplate()))).toList();
        this.problems = problems;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        if (req instanceof HttpServletRequest request && res instanceof HttpServletResponse response
                && "GET".equals(request.getMethod())) {
            String uri = request.getRequestURI();
            int from = request.getContextPath().length();
            for (Route route : routes) {
                String prefix = route.call().pathPrefix();
                if (uri.startsWith(prefix, from)) {
                    String key = uri.substring(from + prefix.length());
                    if (Keys.isValid(key) && acceptParses(request)) {
                        serve(route, key, request, response);
                        return;
                    }
                    break;
                }
            }
        }
        chain.doFilter(req, res);
    }

    private void serve(Route route, String key, HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        long started = System.nanoTime();
        try {
            route.call().serve(key, request, response);
        } catch (RuntimeException failure) {
            // Nothing is written before a call fails, so the problem answer starts clean.
            if (problems.resolveException(request, response, null, failure) == null) {
                route.meter().record(started, HttpServletResponse.SC_INTERNAL_SERVER_ERROR, failure);
                throw failure;
            }
        }
        route.meter().record(started, response.getStatus(), null);
    }

    /** Whether every {@code Accept} header is a list of media types; {@link AcceptHeaderFilter} answers the others. */
    private static boolean acceptParses(HttpServletRequest request) {
        Enumeration<String> accepts = request.getHeaders(HttpHeaders.ACCEPT);
        while (accepts != null && accepts.hasMoreElements()) {
            try {
                MediaType.parseMediaTypes(accepts.nextElement());
            } catch (InvalidMediaTypeException e) {
                return false;
            }
        }
        return true;
    }
}
