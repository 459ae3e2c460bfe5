package org.leafid.server.admin;

import org.leafid.core.LeafException;

/** A tag to create already has a {@code leaf_alloc} row. */
final class TagExistsException extends LeafException {

    private final String tag;

    TagExistsException(String tag) {
        super("Tag '" + tag + "' already exists in leaf_alloc");
        this.tag = tag;
    }

    String tag() {
        return tag;
    }
}
