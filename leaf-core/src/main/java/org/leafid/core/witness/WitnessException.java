package org.leafid.core.witness;

import org.leafid.core.LeafException;

/** The witness of reservations cannot be read or written; the message says what to check. */
public final class WitnessException extends LeafException {

    public WitnessException(String message) {
        super(message);
    }

    public WitnessException(String message, Throwable cause) {
        super(message, cause);
    }
}
