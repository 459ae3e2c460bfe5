package org.leafid.server.problem;

import org.leafid.core.LeafException;

/** The id to decode is not a non-negative 64-bit decimal number, or not one the mode can issue. */
public final class InvalidIdException extends LeafException {

    public InvalidIdException(String given) {
        this("snowflake", given);
    }

    /** @param mode the mode whose ID was expected: {@code snowflake}, {@code shard} */
    public InvalidIdException(String mode, String given) {
        super("id must be a " + mode + " ID: a decimal number from 0 to 9223372036854775807; got '"
                + (given.length() <= 32 ? given : given.substring(0, 32) + "…") + "'");
    }

    /** A number of the right form that no server of the mode issues, {@code reason} saying why. */
    public InvalidIdException(String mode, String given, String reason) {
        super("id " + given + " is not a " + mode + " ID: " + reason);
    }
}
