package org.leafid.server.problem;

import java.net.URI;
import java.util.Locale;
import org.springframework.http.HttpStatus;

/**
 * Every problem type Leaf answers with, its status and what it means: the one list the handlers
 * answer from, the OpenAPI description describes and the docs cite. A handler names a constant,
 * never a string, so a type cannot be sent without being described here.
 *
 * <p>Answers that Spring MVC or Tomcat give by themselves (an unknown path, a wrong method, a
 * request line Tomcat refuses) carry a type named after their status ({@link #namedAfter}); the
 * ones a client of this API meets are listed here too.
 */
public enum ProblemType {

    INVALID_KEY("invalid-key", HttpStatus.BAD_REQUEST, "a tag or key outside [A-Za-z0-9._:-]{1,128}"),
    INVALID_COUNT("invalid-count", HttpStatus.BAD_REQUEST, "count is not a whole number in 1..leaf.max-batch"),
    FORMAT_ROOM("format-room", HttpStatus.BAD_REQUEST,
            "a format batch larger than its period can still hold; nothing was issued (the detail names the room left)"),
    INVALID_ID("invalid-id", HttpStatus.BAD_REQUEST,
            "an ID to decode is not a decimal 64-bit number, or one the mode never issues"),
    INVALID_FORMATTED_ID("invalid-formatted-id", HttpStatus.BAD_REQUEST,
            "a value to decode is not a string of the format (length, literal text, date, number or check character)"),
    INVALID_APP_ID("invalid-app-id", HttpStatus.BAD_REQUEST, "a shard-mode app id outside 0..255"),
    INVALID_GATE_PASS("invalid-gate-pass", HttpStatus.BAD_REQUEST, "a gate pass the server does not accept"),
    INVALID_ACCEPT("invalid-accept", HttpStatus.BAD_REQUEST,
            "an Accept header that is not a list of media types (RFC 9110, section 12.5.1)"),
    INVALID_REQUEST("invalid-request", HttpStatus.BAD_REQUEST, "an admin request body that does not match its "
            + "schema (a field twice, control characters in a name or description)"),
    BAD_REQUEST("bad-request", HttpStatus.BAD_REQUEST, "the query string is not valid percent-encoded UTF-8, "
            + "or Tomcat refused the request line or headers"),
    UNAUTHORIZED("unauthorized", HttpStatus.UNAUTHORIZED, "an admin call without the bearer token"),
    FORBIDDEN("forbidden", HttpStatus.FORBIDDEN, "an admin call, or a shard decode, with a wrong token"),
    TOO_MANY_WRONG_TOKENS("too-many-wrong-tokens", HttpStatus.TOO_MANY_REQUESTS,
            "the client's address sent 20 wrong admin tokens within a minute (Retry-After)"),
    UNKNOWN_TAG("unknown-tag", HttpStatus.NOT_FOUND, "the tag has no leaf_alloc row"),
    UNKNOWN_FORMAT("unknown-format", HttpStatus.NOT_FOUND, "no leaf.formats.<name> is configured by that name"),
    UNKNOWN_APP("unknown-app", HttpStatus.NOT_FOUND, "the app has no id_alloc rows"),
    UNKNOWN_SHARD("unknown-shard", HttpStatus.NOT_FOUND, "the gate pass's shard has no id_alloc row"),
    MODE_DISABLED("mode-disabled", HttpStatus.NOT_FOUND, "the mode is switched off on this server"),
    NOT_FOUND("not-found", HttpStatus.NOT_FOUND,
            "no such path; every admin path while leaf.admin.token is not set"),
    METHOD_NOT_ALLOWED("method-not-allowed", HttpStatus.METHOD_NOT_ALLOWED, "the path does not take this method"),
    NOT_ACCEPTABLE("not-acceptable", HttpStatus.NOT_ACCEPTABLE,
            "the Accept header allows none of the answer's media types"),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", HttpStatus.UNSUPPORTED_MEDIA_TYPE,
            "an admin request body that is not application/json"),
    TAG_EXISTS("tag-exists", HttpStatus.CONFLICT, "the tag exists already"),
    APP_EXISTS("app-exists", HttpStatus.CONFLICT, "the app exists already"),
    BELOW_HIGH_WATER("below-high-water", HttpStatus.CONFLICT,
            "the tag or app reserved numbers above the maxId asked for before"),
    APP_MODE_TAKEN("app-mode-conflict", HttpStatus.CONFLICT,
            "the app's recorded mode (plain or opaque) is not this server's"),
    SEGMENT_NOT_READY("segment-not-ready", HttpStatus.SERVICE_UNAVAILABLE,
            "the next block did not load within leaf.segment.load-wait (Retry-After)"),
    STORE_UNAVAILABLE("store-unavailable", HttpStatus.SERVICE_UNAVAILABLE,
            "the database does not answer and the buffers are empty (Retry-After)"),
    TAG_EXHAUSTED("tag-exhausted", HttpStatus.SERVICE_UNAVAILABLE,
            "max_id + step would pass 2^63 - 1: an operator must move the tag to a new one"),
    FORMAT_EXHAUSTED("format-exhausted", HttpStatus.SERVICE_UNAVAILABLE,
            "the format's number reached its width in this period (never wraps; no Retry-After)"),
    FORMAT_CONFLICT("format-conflict", HttpStatus.SERVICE_UNAVAILABLE,
            "this server defines the format otherwise than the fleet recorded for its tag (leaf_format): not served"),
    APP_LIMIT_REACHED("app-limit-reached", HttpStatus.SERVICE_UNAVAILABLE,
            "the app reached max_limit_id (no Retry-After)"),
    APP_MODE_CONFLICT("app-mode-conflict", HttpStatus.SERVICE_UNAVAILABLE,
            "this server's mode (plain or opaque key) is not the app's (no Retry-After)"),
    CLOCK_MOVED_BACKWARDS("clock-moved-backwards", HttpStatus.SERVICE_UNAVAILABLE,
            "the server clock moved back beyond tolerance (Retry-After)"),
    WORKER_ID_UNAVAILABLE("worker-id-unavailable", HttpStatus.SERVICE_UNAVAILABLE,
            "the worker id is not safe to use (Retry-After)"),
    TIMESTAMP_OUT_OF_RANGE("timestamp-out-of-range", HttpStatus.SERVICE_UNAVAILABLE,
            "the snowflake layout's time field is spent"),
    INTERRUPTED("interrupted", HttpStatus.SERVICE_UNAVAILABLE, "the server is shutting down (Retry-After)"),
    UNAVAILABLE("unavailable", HttpStatus.SERVICE_UNAVAILABLE, "no ID could be issued (Retry-After)"),
    INTERNAL("internal", HttpStatus.INTERNAL_SERVER_ERROR, "an internal error; see the server log");

    /** What every type starts with. */
    public static final String PREFIX = "urn:leaf:problem:";

    private final String type;
    private final HttpStatus status;
    private final String meaning;

    ProblemType(String type, HttpStatus status, String meaning) {
        this.type = type;
        this.status = status;
        this.meaning = meaning;
    }

    /** The part after {@link #PREFIX}, e.g. {@code unknown-tag}. */
    public String type() {
        return type;
    }

    /** The whole type, e.g. {@code urn:leaf:problem:unknown-tag}. */
    public URI uri() {
        return URI.create(PREFIX + type);
    }

    public HttpStatus status() {
        return status;
    }

    /** What it means, for the description and the docs. */
    public String meaning() {
        return meaning;
    }

    /**
     * The type Leaf gives a bare HTTP status, as Spring MVC or Tomcat answer it:
     * {@code method-not-allowed} for 405, {@code http-599} for a status with no name.
     */
    public static String namedAfter(int status) {
        HttpStatus known = HttpStatus.resolve(status);
        return known == null ? "http-" + status : known.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
