package org.leafid.core;

/**
 * Root of every failure Leaf reports instead of an ID. Subclasses are named for the condition
 * and carry its data, so callers map them to answers without parsing messages.
 */
public abstract class LeafException extends RuntimeException {

    protected LeafException(String message) {
        super(message);
    }

    protected LeafException(String message, Throwable cause) {
        super(message, cause);
    }
}
