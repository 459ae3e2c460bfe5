package org.leafid.client;

/**
 * A server refused the request itself (4xx: an unknown tag or app, a malformed key, a mode switched
 * off). Not retried: another server would answer the same. Carries the server's problem type (the
 * part after {@code urn:leaf:problem:}, e.g. {@code unknown-tag}) and its detail.
 */
public class LeafRequestException extends RuntimeException {

    private final int status;
    private final String type;
    private final String detail;

    public LeafRequestException(int status, String type, String detail) {
        super(status + " " + type + ": " + detail);
        this.status = status;
        this.type = type;
        this.detail = detail;
    }

    public int status() {
        return status;
    }

    /** The problem type without its prefix, e.g. {@code unknown-tag}; {@code unknown} when the answer had none. */
    public String type() {
        return type;
    }

    public String detail() {
        return detail;
    }
}
