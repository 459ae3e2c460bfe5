package org.leafid.client;

/**
 * The key has no IDs left: a tag past its {@code max_id} ({@code tag-exhausted}) or a shard-mode app
 * at its {@code max_limit_id} ({@code app-limit-reached}). Every server would answer the same, so
 * the client does not fail over; an operator must act.
 */
public final class LeafLimitReachedException extends LeafRequestException {

    LeafLimitReachedException(int status, String type, String detail, Throwable cause) {
        super(status, type, detail, cause);
    }
}
