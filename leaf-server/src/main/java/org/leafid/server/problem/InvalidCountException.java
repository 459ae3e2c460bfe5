package org.leafid.server.problem;

import org.leafid.core.LeafException;

/** The {@code count} of a get call is not a whole number in 1..{@code leaf.max-batch}. */
public final class InvalidCountException extends LeafException {

    public InvalidCountException(String given, int max) {
        super("count must be a whole number from 1 to " + max + " (leaf.max-batch); got '" + abbreviate(given) + "'");
    }

    private static String abbreviate(String given) {
        return given.length() <= 32 ? given : given.substring(0, 32) + "…";
    }
}
