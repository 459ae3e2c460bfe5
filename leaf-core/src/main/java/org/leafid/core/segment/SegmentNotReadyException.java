package org.leafid.core.segment;

import java.time.Duration;
import org.leafid.core.LeafException;

/** The current block of a tag is spent and the next one did not arrive within the bounded wait. */
public final class SegmentNotReadyException extends LeafException {

    private final String tag;
    private final Duration waited;

    public SegmentNotReadyException(String tag, Duration waited) {
        super("Tag '" + tag + "': the next block was not loaded within " + waited.toMillis() + " ms");
        this.tag = tag;
        this.waited = waited;
    }

    public String tag() {
        return tag;
    }

    public Duration waited() {
        return waited;
    }
}
