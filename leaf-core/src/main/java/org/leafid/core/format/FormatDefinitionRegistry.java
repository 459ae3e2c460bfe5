package org.leafid.core.format;

/**
 * Where the fleet keeps the one definition of each format's tag (the store's {@code leaf_format}).
 * Two definitions over one tag's numbers (another pattern, reset or zone) can render the same
 * string twice, so the first server to use a tag records its definition and every other server
 * compares its own with the recorded one.
 */
@FunctionalInterface
public interface FormatDefinitionRegistry {

    /**
     * Records {@code definition} for {@code tag} when none is, and returns the one recorded (this
     * one, or another server's, never overwritten).
     *
     * @throws RuntimeException when the store cannot be reached: the format is not served meanwhile
     */
    String claim(String tag, String definition);
}
