package org.leafid.server.admin;

import org.leafid.core.LeafException;

/** An admin request body that cannot be used; nothing was written. */
final class InvalidRequestException extends LeafException {

    private final String field;

    /** @param field the JSON field at fault, or null when the body as a whole is */
    InvalidRequestException(String field, String message) {
        super(message);
        this.field = field;
    }

    String field() {
        return field;
    }
}
