package org.leafid.core.format;

import java.util.OptionalLong;
import org.leafid.core.IdGenerator;

/**
 * Where a format's numbers come from, per period: the segment tag {@code <tag>@<period>} (or the
 * tag itself without a reset), or the snowflake generator for every period.
 */
public interface PeriodSequences {

    /**
     * The numbers of a period, 1 first when it resets; may create what the period needs.
     *
     * @param period the period's key ({@code 20261127}), "" for a format that never resets
     */
    IdGenerator sequence(String period);

    /**
     * Gets the period's numbers ready before it begins (its row created, its first block reserved),
     * in the background, so its first number costs no round trip. Called once per period, shortly
     * before its start; by default nothing.
     */
    default void prepare(String period) {
    }

    /**
     * The number the period's next string would carry at the earliest, claiming nothing, when these
     * sequences can tell (a segment tag: its block in memory, loaded when none is); empty when not.
     */
    default OptionalLong nextNumber(String period) {
        return OptionalLong.empty();
    }

    /**
     * How many numbers these sequences handed out since start, when they count them at no cost of
     * their own (a segment generator does, from its blocks); -1 when they do not, and the format
     * counts its strings itself.
     */
    default long issuedCount() {
        return -1;
    }
}
