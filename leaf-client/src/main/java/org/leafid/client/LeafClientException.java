package org.leafid.client;

/** Root of every failure the client reports instead of an ID; unchecked. */
public abstract class LeafClientException extends RuntimeException {

    protected LeafClientException(String message, Throwable cause) {
        super(message, cause);
    }
}
