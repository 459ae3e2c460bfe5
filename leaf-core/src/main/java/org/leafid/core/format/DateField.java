package org.leafid.core.format;

import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;

/** A date part of a format, written in the format's zone, always in its full width. */
public enum DateField {
    YEAR("yyyy", 4, ChronoUnit.YEARS),
    YEAR_OF_CENTURY("yy", 2, ChronoUnit.YEARS),
    MONTH("MM", 2, ChronoUnit.MONTHS),
    DAY("dd", 2, ChronoUnit.DAYS),
    HOUR("HH", 2, ChronoUnit.HOURS);

    private final String token;
    private final int width;
    private final ChronoUnit unit;

    DateField(String token, int width, ChronoUnit unit) {
        this.token = token;
        this.width = width;
        this.unit = unit;
    }

    public String token() {
        return token;
    }

    public int width() {
        return width;
    }

    /** The unit it changes with: what a cached rendering of it stays valid for. */
    ChronoUnit unit() {
        return unit;
    }

    /** Its value at {@code time}. */
    int of(ZonedDateTime time) {
        return switch (this) {
            case YEAR -> time.getYear();
            case YEAR_OF_CENTURY -> time.getYear() % 100;
            case MONTH -> time.getMonthValue();
            case DAY -> time.getDayOfMonth();
            case HOUR -> time.getHour();
        };
    }

    /** Whether a decoded value can be one of it (a day 1-31, an hour 0-23…). */
    boolean plausible(int value) {
        return switch (this) {
            case YEAR -> value >= 1970;
            case YEAR_OF_CENTURY -> value >= 0;
            case MONTH -> value >= 1 && value <= 12;
            case DAY -> value >= 1 && value <= 31;
            case HOUR -> value >= 0 && value <= 23;
        };
    }

    static DateField ofToken(String token) {
        for (DateField field : values()) {
            if (field.token.equals(token)) {
                return field;
            }
        }
        return null;
    }
}
