package org.leafid.server.problem;

import org.leafid.core.LeafException;

/** The client's address sent too many wrong admin tokens lately: 429 until its window ends. */
public final class TooManyWrongTokensException extends LeafException {

    private final long retryAfterSeconds;

    public TooManyWrongTokensException(int limit, long retryAfterSeconds) {
        super("This address sent " + limit + " wrong admin tokens within a minute; admin requests from it are refused "
                + "for " + retryAfterSeconds + " s");
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
