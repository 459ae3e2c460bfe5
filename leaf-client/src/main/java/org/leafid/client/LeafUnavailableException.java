package org.leafid.client;

import java.time.Duration;

/**
 * No ID within the bound: the buffer is spent and no server gave a batch in
 * {@link LeafClient.Builder#maxWait(Duration)} (every one down, backing off, or too slow), or the
 * waiting thread was interrupted, or the client is closed.
 */
public final class LeafUnavailableException extends LeafClientException {

    private final Duration waited;

    LeafUnavailableException(String message, Duration waited, Throwable cause) {
        super(message, cause);
        this.waited = waited;
    }

    /** How long the call waited for a batch before giving up. */
    public Duration waited() {
        return waited;
    }
}
