package org.leafid.core;

/** The segment store (the database) failed: reserving a block for a tag, or listing the tags. */
public final class SegmentStoreException extends LeafException {

    private final String tag;

    /** @param tag the tag a block was reserved for, or null when the tags were being listed */
    public SegmentStoreException(String tag, Throwable cause) {
        super((tag == null ? "Could not list the tags" : "Tag '" + tag + "': could not reserve a block")
                + " in the segment store: " + cause.getMessage(), cause);
        this.tag = tag;
    }

    /** The tag concerned, or null for a failed listing. */
    public String tag() {
        return tag;
    }
}
