package org.leafid.server.problem;

import org.leafid.core.LeafException;

/** The {@code count} of a get call is not a whole number in 1..{@code leaf.max-batch}. */
public final class InvalidCountException extends LeafException {

    /** @param key the key that sets {@code max}, named so that an operator knows what to raise */
    public InvalidCountException(String given, int max, String key) {
        super("count must be a whole number from 1 to " + max + " (" + key + "); got '" + abbreviate(given) + "'");
    }

    private static String abbreviate(String given) {
        return given.length() <= 32 ? given : given.substring(0, 32) + "…";
    }
}
