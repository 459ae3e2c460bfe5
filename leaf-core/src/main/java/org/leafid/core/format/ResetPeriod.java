package org.leafid.core.format;

import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Set;

/**
 * When a format's number starts again at 1: never, or with each day, month or year in the format's
 * zone. Each period has a key ({@code 20261127}, {@code 202611}, {@code 2026}) that names its own
 * sequence, and a format that resets must show the date parts that make the key: otherwise two
 * periods would write the same strings.
 */
public enum ResetPeriod {
    NEVER(Set.of(), null),
    DAILY(Set.of(DateField.YEAR, DateField.MONTH, DateField.DAY), ChronoUnit.DAYS),
    MONTHLY(Set.of(DateField.YEAR, DateField.MONTH), ChronoUnit.MONTHS),
    YEARLY(Set.of(DateField.YEAR), ChronoUnit.YEARS);

    private final Set<DateField> needs;
    private final ChronoUnit unit;

    ResetPeriod(Set<DateField> needs, ChronoUnit unit) {
        this.needs = needs;
        this.unit = unit;
    }

    /** The date parts a pattern must have for this reset: {@code {yyyy}} (a century of {@code {yy}} repeats). */
    public Set<DateField> needs() {
        return needs;
    }

    /** The key of the period {@code time} is in: "" for {@link #NEVER}. */
    public String key(ZonedDateTime time) {
        return switch (this) {
            case NEVER -> "";
            case DAILY -> String.format("%04d%02d%02d", time.getYear(), time.getMonthValue(), time.getDayOfMonth());
            case MONTHLY -> String.format("%04d%02d", time.getYear(), time.getMonthValue());
            case YEARLY -> String.format("%04d", time.getYear());
        };
    }

    /** The key of the period a decoded string belongs to, from its date parts. */
    String key(int year, int month, int day) {
        return switch (this) {
            case NEVER -> "";
            case DAILY -> String.format("%04d%02d%02d", year, month, day);
            case MONTHLY -> String.format("%04d%02d", year, month);
            case YEARLY -> String.format("%04d", year);
        };
    }

    /** The unit a period lasts, or null for {@link #NEVER}. */
    ChronoUnit unit() {
        return unit;
    }
}
