package org.leafid.server.id;

import io.micrometer.core.instrument.Timer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.leafid.core.segment.IdRanges;
import org.springframework.http.HttpHeaders;

/**
 * One get endpoint's work ({@code GET /api/<mode>/get/{key}[?count=N]}): check the key and
 * {@code count}, issue, write the answer, time it into {@code leaf_id_requests_seconds}. Shared by
 * the Spring MVC controller and {@link IdFastPathValve}, so both answer byte for byte alike.
 * Failures are thrown as they are, before anything is written, for {@code problem.ProblemHandler} to answer.
 *
 * @param <K> what the mode issues for: the checked tag or key, or a shard app with its gate pass
 */
final class IdGetCall<K> {

    /** Where the IDs of one mode come from. */
    interface Issuer<K> {

        /**
         * The path's key checked, with what else of the request picks the IDs (the shard's gate pass).
         * Called before {@code count} is read, so a bad key is refused first, as it always was.
         */
        K key(String given, HttpServletRequest request);

        long nextId(K key);

        long[] nextIds(K key, int count);
    }

    /**
     * An issuer whose batches are runs of IDs (segment, shard): it can answer a batch as ranges
     * ({@link IdAnswers.Form#RANGES}) when the caller asks for them.
     */
    interface RangeIssuer<K> extends Issuer<K> {

        IdRanges nextRanges(K key, int count);

        /** Whether this issuer answers ranges at all (a shard server with an opaque key does not). */
        default boolean givesRanges() {
            return true;
        }
    }

    /** Where the strings of a mode that issues strings come from (the formats). */
    interface TextIssuer<K> {

        /** As {@link Issuer#key}. */
        K key(String given, HttpServletRequest request);

        String next(K key);

        String[] next(K key, int count);

        /** Sets what every answer of the key carries besides its values (a header), before they are issued. */
        void describe(K key, HttpServletResponse response);
    }

    /** How one mode checks its key and writes its answers. */
    private interface Answering<K> {

        K key(String given, HttpServletRequest request);

        void single(K key, HttpServletResponse response) throws IOException;

        void batch(K key, int count, IdAnswers.Form form, HttpServletResponse response) throws IOException;

        /** Whether {@link IdAnswers.Form#RANGES} is an answer this mode can give. */
        boolean answersRanges();
    }

    private final String mode;
    private final String keyName;
    private final Answering<K> issuer;
    private final IdAnswers.CountLimit lineLimit;
    private final IdAnswers.CountLimit rangeLimit;
    private final Timer requests;

    /**
     * @param mode {@code segment}, {@code snowflake}, {@code shard} or {@code format}: the path is {@code /api/<mode>/get/{<keyName>}}
     * @param keyName {@code tag}, {@code key} or {@code appId}, as the path variable names it
     * @param lineLimit the largest count of a batch written out ID by ID (text, JSON)
     * @param rangeLimit the largest count of a batch answered as ranges
     */
    IdGetCall(String mode, String keyName, Issuer<K> issuer, IdAnswers.CountLimit lineLimit,
            IdAnswers.CountLimit rangeLimit, Timer requests) {
        this(mode, keyName, new Answering<>() {
            @Override
            public K key(String given, HttpServletRequest request) {
                return issuer.key(given, request);
            }

            @Override
            public void single(K key, HttpServletResponse response) throws IOException {
                IdAnswers.single(response, issuer.nextId(key));
            }

            @Override
            public void batch(K key, int count, IdAnswers.Form form, HttpServletResponse response) throws IOException {
                if (form == IdAnswers.Form.RANGES && issuer instanceof RangeIssuer<K> rangeIssuer) {
                    IdRanges ranges = rangeIssuer.nextRanges(key, count);
                    if (IdAnswers.shorterAsRanges(ranges)) {
                        IdAnswers.ranges(response, ranges);
                    } else {
                        IdAnswers.batch(response, ranges.toArray(), false);
                    }
                    return;
                }
                IdAnswers.batch(response, issuer.nextIds(key, count), form == IdAnswers.Form.JSON);
            }

            @Override
            public boolean answersRanges() {
                return issuer instanceof RangeIssuer<K> ranges && ranges.givesRanges();
            }
        }, lineLimit, rangeLimit, requests);
    }

    /** A mode that issues strings: they are written as IDs are, text or a JSON array of strings. */
    IdGetCall(String mode, String keyName, TextIssuer<K> issuer, IdAnswers.CountLimit lineLimit, Timer requests) {
        this(mode, keyName, new Answering<>() {
            @Override
            public K key(String given, HttpServletRequest request) {
                return issuer.key(given, request);
            }

            @Override
            public void single(K key, HttpServletResponse response) throws IOException {
                String value = issuer.next(key);
                issuer.describe(key, response);
                IdAnswers.single(response, value);
            }

            @Override
            public void batch(K key, int count, IdAnswers.Form form, HttpServletResponse response) throws IOException {
                String[] values = issuer.next(key, count);
                issuer.describe(key, response);
                IdAnswers.batch(response, values, form == IdAnswers.Form.JSON);
            }

            @Override
            public boolean answersRanges() {
                return false;
            }
        }, lineLimit, lineLimit, requests);
    }

    private IdGetCall(String mode, String keyName, Answering<K> issuer, IdAnswers.CountLimit lineLimit,
            IdAnswers.CountLimit rangeLimit, Timer requests) {
        this.mode = mode;
        this.keyName = keyName;
        this.issuer = issuer;
        this.lineLimit = lineLimit;
        this.rangeLimit = rangeLimit;
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
            K checked = issuer.key(key, request);
            // Read from the request itself: Spring's @RequestParam/@RequestHeader resolvers cost
            // more than issuing the ID. Without a query string there is no count, and Tomcat's
            // parameter parsing (about 1 % of a single-ID call) is skipped.
            String count = request.getQueryString() == null ? null : request.getParameter("count");
            if (count == null) {
                issuer.single(checked, response);
                return;
            }
            // Before issuing: a failure must not lose IDs.
            IdAnswers.Form form = IdAnswers.form(request.getHeader(HttpHeaders.ACCEPT), issuer.answersRanges());
            int size = IdAnswers.parseCount(request.getParameterValues("count"),
                    form == IdAnswers.Form.RANGES ? rangeLimit : lineLimit);
            issuer.batch(checked, size, form, response);
        } finally {
            requests.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }
}
