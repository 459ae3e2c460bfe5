package org.leafid.server.web;

import io.micrometer.core.instrument.Timer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpHeaders;

/**
 * One get endpoint's work ({@code GET /api/<mode>/get/{key}[?count=N]}): check the key and
 * {@code count}, issue, write the answer, time it into {@code leaf_id_requests_seconds}. Shared by
 * the Spring MVC controller and {@link IdFastPathValve}, so both answer byte for byte alike.
 * Failures are thrown as they are, before anything is written, for {@link ProblemHandler} to answer.
 */
final class IdGetCall {

    /** Where the IDs of one mode come from. */
    interface Issuer {

        long nextId(String key);

        long[] nextIds(String key, int count);
    }

    private final String mode;
    private final String keyName;
    private final Issuer issuer;
    private final int maxBatch;
    private final Timer requests;

    /**
     * @param mode {@code segment} or {@code snowflake}: the path is {@code /api/<mode>/get/{<keyName>}}
     * @param keyName {@code tag} or {@code key}, as the path variable and the refusals name it
     */
    IdGetCall(String mode, String keyName, Issuer issuer, int maxBatch, Timer requests) {
        this.mode = mode;
        this.keyName = keyName;
        this.issuer = issuer;
        this.maxBatch = maxBatch;
        this.requests = requests;
    }

    /** The part of the path before the key, e.g. {@code /api/segment/get/}. */
    String pathPrefix() {
        return "/api/" + mode + "/get/";
    }

    /** The path as Spring MVC maps it, the {@code uri} label of {@code http_server_requests_seconds}. */
    String uriTemplate() {
        return pathPrefix() + "{" + keyName + "}";
    }

    void serve(String key, HttpServletRequest request, HttpServletResponse response) throws IOException {
        long started = System.nanoTime();
        try {
            Keys.requireValid(keyName, key);
            // Read from the request itself: Spring's @RequestParam/@RequestHeader resolvers cost
            // more than issuing the ID. Without a query string there is no count, and Tomcat's
            // parameter parsing (about 1 % of a single-ID call) is skipped.
            String count = request.getQueryString() == null ? null : request.getParameter("count");
            if (count == null) {
                IdAnswers.single(response, issuer.nextId(key));
                return;
            }
            int size = IdAnswers.parseCount(request.getParameterValues("count"), maxBatch);
            // Before issuing: a failure must not lose IDs.
            boolean json = IdAnswers.wantsJson(request.getHeader(HttpHeaders.ACCEPT));
            IdAnswers.batch(response, issuer.nextIds(key, size), json);
        } finally {
            requests.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }
}
