package org.leafid.server.problem;

import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.leafid.core.LeafException;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.format.FormatConflictException;
import org.leafid.core.format.FormatExhaustedException;
import org.leafid.core.format.FormatRoomException;
import org.leafid.core.format.InvalidFormattedIdException;
import org.leafid.core.format.UnknownFormatException;
import org.leafid.core.segment.FoundTwiceException;
import org.leafid.core.segment.SegmentNotReadyException;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.TagExhaustedException;
import org.leafid.core.segment.UnknownTagException;
import org.leafid.core.shard.AppLimitReachedException;
import org.leafid.core.shard.AppModeConflictException;
import org.leafid.core.shard.ShardStoreException;
import org.leafid.core.shard.UnknownAppException;
import org.leafid.core.shard.UnknownShardException;
import org.leafid.core.snowflake.ClockMovedBackwardsException;
import org.leafid.core.snowflake.TimestampOverflowException;
import org.leafid.core.witness.WitnessException;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.server.disclosure.Disclosure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns every failure into RFC 9457 {@code application/problem+json} with a stable type and a
 * detail a person can act on; never a stack trace. Spring MVC's own errors (unknown path, wrong
 * method) come out the same way through {@link ResponseEntityExceptionHandler}.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    /** 503s of one kind are logged once per 10 s: an outage refuses thousands a second. */
    private final RefusalLog refusals = new RefusalLog(log, 10_000);
    private final Disclosure disclosure;

    ProblemHandler(Disclosure disclosure) {
        this.disclosure = disclosure;
    }

    @ExceptionHandler(TooManyWrongTokensException.class)
    ResponseEntity<ProblemDetail> tooManyWrongTokens(TooManyWrongTokensException e, HttpServletRequest request) {
        return problem(request, ProblemType.TOO_MANY_WRONG_TOKENS, e.getMessage(), e.retryAfterSeconds());
    }

    @ExceptionHandler(InvalidKeyException.class)
    ResponseEntity<ProblemDetail> invalidKey(InvalidKeyException e, HttpServletRequest request) {
        return problem(request, ProblemType.INVALID_KEY, e.getMessage(), 0);
    }

    /**
     * Spring MVC's own errors (unknown path, wrong method, unreadable request) get a stable type
     * too, named after the status: {@code urn:leaf:problem:not-found}, {@code method-not-allowed}….
     */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        ResponseEntity<Object> response = super.handleExceptionInternal(ex, body, headers, statusCode, request);
        if (response != null && response.getBody() instanceof ProblemDetail problem
                && (problem.getType() == null || "about:blank".equals(problem.getType().toString()))) {
            problem.setType(URI.create(ProblemType.PREFIX + ProblemType.namedAfter(statusCode.value())));
        }
        return response;
    }

    /** A wrong admin token, on the admin API or on an endpoint that answers the admin more (shard decode). */
    @ExceptionHandler(WrongAdminTokenException.class)
    ResponseEntity<ProblemDetail> wrongAdminToken(WrongAdminTokenException e, HttpServletRequest request) {
        return problem(request, ProblemType.FORBIDDEN, e.getMessage(), 0);
    }

    /**
     * Bad percent-encoding in the query ({@code ?count=%zz}, {@code ?gatePass=%ff}): Tomcat parses the
     * parameters when they are first read, inside whichever endpoint reads them, and throws. A client's
     * mistake, so a 400 of the type Tomcat's own refusals of bad encoding have, and no log line. The
     * detail does not quote the value: Tomcat's message does, possibly mangled.
     */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<ProblemDetail> badQuery(InvalidParameterException e, HttpServletRequest request) {
        return problem(request, ProblemType.BAD_REQUEST, "The query string is not valid percent-encoded "
                + "UTF-8; encode each parameter value (e.g. encodeURIComponent) and send it again", 0);
    }

    @ExceptionHandler(InvalidCountException.class)
    ResponseEntity<ProblemDetail> invalidCount(InvalidCountException e, HttpServletRequest request) {
        return problem(request, ProblemType.INVALID_COUNT, e.getMessage(), 0);
    }

    @ExceptionHandler(InvalidIdException.class)
    ResponseEntity<ProblemDetail> invalidId(InvalidIdException e, HttpServletRequest request) {
        return problem(request, ProblemType.INVALID_ID, e.getMessage(), 0);
    }

    @ExceptionHandler(UnknownTagException.class)
    ResponseEntity<ProblemDetail> unknownTag(UnknownTagException e, HttpServletRequest request) {
        return problem(request, ProblemType.UNKNOWN_TAG, "Tag '" + e.tag()
                + "' is not in leaf_alloc; insert a row for it (tags are re-read every refresh interval)", 0);
    }

    @ExceptionHandler(InvalidAppIdException.class)
    ResponseEntity<ProblemDetail> invalidAppId(InvalidAppIdException e, HttpServletRequest request) {
        return problem(request, ProblemType.INVALID_APP_ID, e.getMessage(), 0);
    }

    @ExceptionHandler(InvalidGatePassException.class)
    ResponseEntity<ProblemDetail> invalidGatePass(InvalidGatePassException e, HttpServletRequest request) {
        return problem(request, ProblemType.INVALID_GATE_PASS, e.getMessage(), 0);
    }

    @ExceptionHandler(UnknownAppException.class)
    ResponseEntity<ProblemDetail> unknownApp(UnknownAppException e, HttpServletRequest request) {
        return problem(request, ProblemType.UNKNOWN_APP, "App " + e.appId() + " is not in id_alloc; create it "
                + "with POST /api/admin/apps or insert its 64 rows (apps are re-read every refresh interval)", 0);
    }

    @ExceptionHandler(UnknownShardException.class)
    ResponseEntity<ProblemDetail> unknownShard(UnknownShardException e, HttpServletRequest request) {
        return problem(request, ProblemType.UNKNOWN_SHARD, e.getMessage() + "; the gate pass maps to shard "
                + e.shardId() + ": insert the app's row for it", 0);
    }

    @ExceptionHandler(AppLimitReachedException.class)
    ResponseEntity<ProblemDetail> appLimitReached(AppLimitReachedException e, HttpServletRequest request) {
        refusals.error("app-limit-reached", masked(e.getMessage()));
        // No Retry-After: waiting does not help, only an operator does.
        return problem(request, ProblemType.APP_LIMIT_REACHED, e.getMessage(), 0);
    }

    @ExceptionHandler(AppModeConflictException.class)
    ResponseEntity<ProblemDetail> appModeConflict(AppModeConflictException e, HttpServletRequest request) {
        // Logged once when the refusal began (ShardAppModes); waiting does not help, only an operator does.
        return problem(request, ProblemType.APP_MODE_CONFLICT, "This server does not serve "
                + e.getMessage(), 0);
    }

    @ExceptionHandler(ShardStoreException.class)
    ResponseEntity<ProblemDetail> shardStoreUnavailable(ShardStoreException e, HttpServletRequest request) {
        refusals.warn("shard-store-unavailable", masked("Shard mode failure answered with 503: " + e.getMessage()));
        if (foundTwice(e)) {
            return problem(request, ProblemType.STORE_UNAVAILABLE, e.getMessage(), 0); // an operator's, not time's
        }
        return problem(request, ProblemType.STORE_UNAVAILABLE, e.getMessage()
                + "; shard IDs are refused with 503 until the database answers", 1);
    }

    @ExceptionHandler(ModeDisabledException.class)
    ResponseEntity<ProblemDetail> modeDisabled(ModeDisabledException e, HttpServletRequest request) {
        return problem(request, ProblemType.MODE_DISABLED, e.getMessage(), 0);
    }

    @ExceptionHandler(SegmentNotReadyException.class)
    ResponseEntity<ProblemDetail> segmentNotReady(SegmentNotReadyException e, HttpServletRequest request) {
        return problem(request, ProblemType.SEGMENT_NOT_READY, e.getMessage()
                + "; the database is slow or unreachable, retry shortly", 1);
    }

    @ExceptionHandler(SegmentStoreException.class)
    ResponseEntity<ProblemDetail> storeUnavailable(SegmentStoreException e, HttpServletRequest request) {
        // The message says what to check: the store adds the hint.
        refusals.warn("store-unavailable", masked("Segment store failure answered with 503: " + e.getMessage()));
        if (foundTwice(e)) {
            return problem(request, ProblemType.STORE_UNAVAILABLE, e.getMessage(), 0); // an operator's, not time's
        }
        // The message names the database (url without password), the cause and what to check.
        return problem(request, ProblemType.STORE_UNAVAILABLE, e.getMessage()
                + "; segment IDs are refused with 503 until the database answers", 1);
    }

    @ExceptionHandler(UnknownFormatException.class)
    ResponseEntity<ProblemDetail> unknownFormat(UnknownFormatException e, HttpServletRequest request) {
        return problem(request, ProblemType.UNKNOWN_FORMAT, e.getMessage(), 0);
    }

    @ExceptionHandler(InvalidFormattedIdException.class)
    ResponseEntity<ProblemDetail> invalidFormattedId(InvalidFormattedIdException e, HttpServletRequest request) {
        return problem(request, ProblemType.INVALID_FORMATTED_ID, e.getMessage(), 0);
    }

    /** The generator logged it once per period; the answer names the format and the period. */
    @ExceptionHandler(FormatExhaustedException.class)
    ResponseEntity<ProblemDetail> formatExhausted(FormatExhaustedException e, HttpServletRequest request) {
        return problem(request, ProblemType.FORMAT_EXHAUSTED, e.getMessage(), 0);
    }

    /** Logged once at start or at the first request; the answer names both definitions. */
    @ExceptionHandler(FormatConflictException.class)
    ResponseEntity<ProblemDetail> formatConflict(FormatConflictException e, HttpServletRequest request) {
        return problem(request, ProblemType.FORMAT_CONFLICT, e.getMessage(), 0);
    }

    /** Refused whole before anything was issued: the caller asks again for at most the room named. */
    @ExceptionHandler(FormatRoomException.class)
    ResponseEntity<ProblemDetail> formatRoom(FormatRoomException e, HttpServletRequest request) {
        return problem(request, ProblemType.FORMAT_ROOM, e.getMessage(), 0);
    }

    @ExceptionHandler(TagExhaustedException.class)
    ResponseEntity<ProblemDetail> tagExhausted(TagExhaustedException e, HttpServletRequest request) {
        refusals.error("tag-exhausted", masked(e.getMessage() + ": an operator must move the tag to a new one"));
        return problem(request, ProblemType.TAG_EXHAUSTED, e.getMessage()
                + "; no more IDs can be issued for this tag", 0);
    }

    @ExceptionHandler(ClockMovedBackwardsException.class)
    ResponseEntity<ProblemDetail> clockMovedBackwards(ClockMovedBackwardsException e, HttpServletRequest request) {
        refusals.warn("clock-moved-backwards", masked("Refused a snowflake ID: " + e.getMessage()
                + "; check NTP on this host, it must slew rather than step the clock"));
        long seconds = Math.max(1, (e.backwardsMillis() + 999) / 1000);
        return problem(request, ProblemType.CLOCK_MOVED_BACKWARDS, "The server clock moved back by "
                + e.backwardsMillis() + " ms; no snowflake ID is issued until it catches up", seconds);
    }

    @ExceptionHandler(WorkerIdUnavailableException.class)
    ResponseEntity<ProblemDetail> workerIdUnavailable(WorkerIdUnavailableException e, HttpServletRequest request) {
        refusals.warn("worker-id-unavailable", masked("Refused a snowflake ID: " + e.getMessage()));
        return problem(request, ProblemType.WORKER_ID_UNAVAILABLE, e.getMessage(), 1);
    }

    @ExceptionHandler(TimestampOverflowException.class)
    ResponseEntity<ProblemDetail> timestampOverflow(TimestampOverflowException e, HttpServletRequest request) {
        refusals.error("timestamp-out-of-range", masked("Refused a snowflake ID: " + e.getMessage()
                + "; check the clock and leaf.snowflake.twepoch"));
        return problem(request, ProblemType.TIMESTAMP_OUT_OF_RANGE,
                "The clock is outside the time field of the snowflake layout after leaf.snowflake.twepoch", 0);
    }

    @ExceptionHandler(LeafInterruptedException.class)
    ResponseEntity<ProblemDetail> interrupted(LeafInterruptedException e, HttpServletRequest request) {
        return problem(request, ProblemType.INTERRUPTED, "The server is shutting down", 1);
    }

    /** The fleet's witness could not record a block (ZooKeeper or Redis down): nothing of it is served. */
    @ExceptionHandler(WitnessException.class)
    ResponseEntity<ProblemDetail> witnessUnavailable(WitnessException e, HttpServletRequest request) {
        refusals.warn("witness-unavailable", masked("Witness failure answered with 503: " + e.getMessage()));
        return problem(request, ProblemType.STORE_UNAVAILABLE, e.getMessage()
                + "; IDs are refused with 503 until the witness answers", 1);
    }

    @ExceptionHandler(LeafException.class)
    ResponseEntity<ProblemDetail> otherLeafFailure(LeafException e, HttpServletRequest request) {
        log.error("Unmapped Leaf failure", e);
        return problem(request, ProblemType.UNAVAILABLE, "No ID could be issued", 1);
    }

    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<ProblemDetail> unexpected(RuntimeException e, HttpServletRequest request) {
        log.error("Unexpected failure while serving a request", e);
        return problem(request, ProblemType.INTERNAL, "An internal error occurred; see the server log",
                0);
    }

    /** The detail as this caller may read it ({@link Disclosure}): no host, url or fingerprint without the admin token. */
    private ResponseEntity<ProblemDetail> problem(HttpServletRequest request, ProblemType type, String detail,
            long retryAfterSeconds) {
        return Problems.response(type, disclosure.shown(request, detail), retryAfterSeconds);
    }

    /** Whether the failure is two databases at once, which only an operator ends: no "retry". */
    private static boolean foundTwice(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof FoundTwiceException) {
                return true;
            }
        }
        return false;
    }

    private String masked(String text) {
        return disclosure.masked(text);
    }
}
