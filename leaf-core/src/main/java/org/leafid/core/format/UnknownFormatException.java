package org.leafid.core.format;

import org.leafid.core.LeafException;

/** No format of that name is configured ({@code leaf.formats.<name>.pattern}). */
public final class UnknownFormatException extends LeafException {

    private final String name;

    public UnknownFormatException(String name) {
        super("No format '" + name + "' is configured: set leaf.formats." + name + ".pattern");
        this.name = name;
    }

    public String name() {
        return name;
    }
}
