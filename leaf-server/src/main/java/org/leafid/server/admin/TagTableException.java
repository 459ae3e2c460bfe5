package org.leafid.server.admin;

import org.leafid.core.LeafException;

/** {@code leaf_alloc} could not be read or changed: the database failed or is unreachable. */
final class TagTableException extends LeafException {

    TagTableException(String action, Throwable cause) {
        super("Could not " + action + " leaf_alloc: " + rootCause(cause).getMessage(), cause);
    }

    private static Throwable rootCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }
}
