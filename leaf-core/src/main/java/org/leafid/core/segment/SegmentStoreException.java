package org.leafid.core.segment;

import org.leafid.core.LeafException;

/** The segment store (the database) failed: reserving a block for a tag, or listing the tags. */
public final class SegmentStoreException extends LeafException {

    private final String tag;
    private final String reason;

    /** @param tag the tag a block was reserved for, or null when the tags were being listed */
    public SegmentStoreException(String tag, Throwable cause) {
        this(tag, (tag == null ? "Could not list the tags" : "could not reserve a block")
                + " in the segment store: " + cause.getMessage(), cause);
    }

    /**
     * @param tag the tag a block was reserved for, or null when the tags were being listed
     * @param reason what failed, in words an operator can act on; the store knows them best
     */
    public SegmentStoreException(String tag, String reason, Throwable cause) {
        super(tag == null ? reason : "Tag '" + tag + "': " + reason, cause);
        this.tag = tag;
        this.reason = reason;
    }

    /** The tag concerned, or null for a failed listing. */
    public String tag() {
        return tag;
    }

    /** What failed, without the tag. */
    public String reason() {
        return reason;
    }
}
