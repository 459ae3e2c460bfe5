package org.leafid.core.format;

import org.leafid.core.LeafException;

/**
 * A batch of a format larger than its period can still hold: refused whole, nothing issued, so that
 * the rest of the period stays usable by smaller requests.
 */
public final class FormatRoomException extends LeafException {

    private final long room;

    public FormatRoomException(String format, String period, int count, long room) {
        super("format '" + format + "' can issue " + room + " more number" + (room == 1 ? "" : "s")
                + (period.isEmpty() ? "" : " in period " + period) + ", fewer than the " + count
                + " asked for; nothing was issued: ask for at most " + room
                + (period.isEmpty() ? "" : ", or wait for the next period"));
        this.room = room;
    }

    /** How many more numbers the period can hold (at most: another server may take some meanwhile). */
    public long room() {
        return room;
    }
}
