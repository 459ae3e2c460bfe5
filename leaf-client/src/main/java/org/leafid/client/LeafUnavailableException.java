package org.leafid.client;

/**
 * No ID could be had within the client's bound: every server was down, or answered 5xx, and
 * nothing was left in the buffer. Retry later; nothing was issued twice.
 */
public class LeafUnavailableException extends RuntimeException {

    public LeafUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
