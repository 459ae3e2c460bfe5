package org.leafid.core;

import java.time.Duration;

/**
 * Durations the way a user writes them in {@code leaf.properties} ("30s", "1500ms", "1h30m"),
 * for messages and logs; {@link Duration#toString()} prints "PT30S".
 */
public final class Durations {

    private Durations() {}

    /** Whole milliseconds as "1500ms" unless they make whole seconds; then "1h30m", "2m", "30s". */
    public static String format(Duration duration) {
        if (duration.isNegative()) {
            return "-" + format(duration.negated());
        }
        if (duration.toNanosPart() % 1_000_000 != 0) {
            return duration.toNanos() + "ns";
        }
        if (duration.isZero() || duration.toMillisPart() != 0) {
            return duration.toMillis() + "ms";
        }
        StringBuilder text = new StringBuilder();
        append(text, duration.toHours(), "h");
        append(text, duration.toMinutesPart(), "m");
        append(text, duration.toSecondsPart(), "s");
        return text.toString();
    }

    private static void append(StringBuilder text, long amount, String unit) {
        if (amount != 0) {
            text.append(amount).append(unit);
        }
    }
}
