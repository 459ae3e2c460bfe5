package org.leafid.core;

/** The segment store (the database) could not reserve a block for a tag. */
public final class SegmentStoreException extends LeafException {

    private final String tag;

    public SegmentStoreException(String tag, Throwable cause) {
        super("Tag '" + tag + "': could not reserve a block from the store: " + cause.getMessage(), cause);
        this.tag = tag;
    }

    public String tag() {
        return tag;
    }
}
