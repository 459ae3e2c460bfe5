package org.leafid.core.format;

import org.leafid.core.LeafException;

/** A value given to decode is not a string of the format: what is wrong, in words. */
public final class InvalidFormattedIdException extends LeafException {

    private final String value;
    private final String reason;

    public InvalidFormattedIdException(String value, String reason) {
        super("'" + value + "' " + reason);
        this.value = value;
        this.reason = reason;
    }

    public String value() {
        return value;
    }

    public String reason() {
        return reason;
    }
}
