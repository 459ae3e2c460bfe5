package org.leafid.core.segment;

import org.leafid.core.LeafException;

/** The business tag has no row in {@code leaf_alloc} (or it was deleted). */
public final class UnknownTagException extends LeafException {

    private final String tag;

    public UnknownTagException(String tag) {
        super("Tag '" + tag + "' is not in leaf_alloc");
        this.tag = tag;
    }

    public String tag() {
        return tag;
    }
}
