package org.leafid.client;

/**
 * A server refused the request itself (a 4xx, or shard mode's {@code app-limit-reached}): asking
 * another server would get the same answer, so none is asked. Carries the server's problem+json
 * {@code type} ({@code urn:leaf:problem:unknown-tag}, …) and {@code detail}; the subclasses name the
 * conditions an application handles differently.
 */
public class LeafRequestException extends LeafClientException {

    private final int status;
    private final String type;
    private final String detail;

    LeafRequestException(int status, String type, String detail, Throwable cause) {
        super(status + " " + type + ": " + detail, cause);
        this.status = status;
        this.type = type;
        this.detail = detail;
    }

    /** A refusal of the right subclass for the problem type. */
    static LeafRequestException of(int status, String type, String detail, Throwable cause) {
        return switch (Problem.shortType(type)) {
            case "unknown-tag", "unknown-app", "unknown-shard", "mode-disabled" ->
                    new LeafUnknownKeyException(status, type, detail, cause);
            case "app-limit-reached", "tag-exhausted" -> new LeafLimitReachedException(status, type, detail, cause);
            default -> status == 400 ? new LeafInvalidInputException(status, type, detail, cause)
                    : new LeafRequestException(status, type, detail, cause);
        };
    }

    /** The same refusal thrown again in the caller's thread, with this one (the fetch's) as its cause. */
    LeafRequestException rethrown() {
        return of(status, type, detail, this);
    }

    /** The HTTP status, e.g. 404. */
    public int status() {
        return status;
    }

    /** The problem type, e.g. {@code urn:leaf:problem:unknown-tag}; {@code about:blank} when the body had none. */
    public String type() {
        return type;
    }

    /** What the server said a person can do about it. */
    public String detail() {
        return detail;
    }
}
