package org.leafid.core.format;

import org.leafid.core.LeafException;

/** A format's number reached the largest its width holds in a period: it never wraps nor widens. */
public final class FormatExhaustedException extends LeafException {

    private final String format;
    private final String period;
    private final long maxNumber;

    public FormatExhaustedException(String format, String period, long maxNumber) {
        super("format '" + format + "' has used every number its width holds (up to " + maxNumber + ")"
                + (period.isEmpty() ? "" : " in period " + period) + "; it never wraps nor widens: "
                + (period.isEmpty() ? "give the format a wider number (a new format name, since values change length)"
                        : "the next period starts at 1 again; for more per period, widen the number under a new format name"));
        this.format = format;
        this.period = period;
        this.maxNumber = maxNumber;
    }

    public String format() {
        return format;
    }

    /** The period ("" for a format that never resets). */
    public String period() {
        return period;
    }

    public long maxNumber() {
        return maxNumber;
    }
}
