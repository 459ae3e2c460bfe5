package org.leafid.core.segment;

import org.leafid.core.LeafException;

/** Reserving another block would push {@code max_id} past {@link Long#MAX_VALUE}. */
public final class TagExhaustedException extends LeafException {

    private final String tag;
    private final long maxId;
    private final long step;

    public TagExhaustedException(String tag, long maxId, long step) {
        super("Tag '" + tag + "' is exhausted: max_id " + maxId + " + step " + step
                + " would overflow a signed 64-bit number");
        this.tag = tag;
        this.maxId = maxId;
        this.step = step;
    }

    public String tag() {
        return tag;
    }

    public long maxId() {
        return maxId;
    }

    public long step() {
        return step;
    }
}
