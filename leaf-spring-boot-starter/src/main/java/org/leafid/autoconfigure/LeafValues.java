package org.leafid.autoconfigure;

import java.time.Duration;
import java.util.regex.Pattern;
import org.leafid.core.Durations;

/**
 * The checks of {@code leaf.*} values that the configuration records make in their constructors: each
 * names the key, the value and what is accepted, as a {@link LeafConfigurationException} that stops the
 * start with that one sentence (Bean Validation's messages name neither the fix nor, in its summary, the key).
 * Plain checks also keep Bean Validation out of the starter: an application that embeds Leaf gets no
 * Hibernate Validator from it, 600-odd classes it would load at every start.
 */
public final class LeafValues {

    private LeafValues() {}

    /** {@code value} within {@code min..max}, both included. */
    public static long requireBetween(String key, long value, long min, long max) {
        if (value < min || value > max) {
            throw new LeafConfigurationException(key, "is " + value + " but must be between " + min + " and " + max
                    + ".", "Set it to a whole number from " + min + " to " + max + ".");
        }
        return value;
    }

    /** {@code value} within {@code min..max}, both included; {@code null} (unset) passes. */
    public static void requireBetweenIfSet(String key, Long value, long min, long max) {
        if (value != null) {
            requireBetween(key, value, min, max);
        }
    }

    /** {@code value} within {@code min..max}, both included; {@code null} (unset) passes. */
    public static void requireBetweenIfSet(String key, Integer value, long min, long max) {
        if (value != null) {
            requireBetween(key, value, min, max);
        }
    }

    /** A fraction within {@code min..max}, both included. */
    public static void requireBetween(String key, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            throw new LeafConfigurationException(key, "is " + value + " but must be between " + min + " and " + max
                    + ".", "Set it to a number from " + min + " to " + max + ".");
        }
    }

    /** {@code value} matches {@code pattern} whole; {@code accepted} says in words what does. */
    public static void requireMatch(String key, String value, Pattern pattern, String accepted) {
        if (value == null || !pattern.matcher(value).matches()) {
            throw new LeafConfigurationException(key, "is '" + value + "' but must be " + accepted + ".",
                    "Set it to " + accepted + ".");
        }
    }

    public static void requirePositive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new LeafConfigurationException(key, "is " + Durations.format(value) + " but must be positive.",
                    "Set it to a duration such as 500ms, 30s or 2m.");
        }
    }

    public static void requireNotNegative(String key, Duration value) {
        if (value.isNegative()) {
            throw new LeafConfigurationException(key, "is " + Durations.format(value) + " but must not be negative.",
                    "Set it to 0 or a duration such as 500ms, 30s or 2m.");
        }
    }
}
