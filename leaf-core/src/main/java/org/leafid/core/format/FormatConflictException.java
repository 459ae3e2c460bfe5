package org.leafid.core.format;

import org.leafid.core.LeafException;

/** This server's definition of a format differs from the one the fleet recorded for its tag: not served. */
public final class FormatConflictException extends LeafException {

    public FormatConflictException(String format, String tag, String mine, String recorded) {
        super("format '" + format + "' is defined here as " + mine + ", but its tag '" + tag + "' was recorded as "
                + recorded + " by the first server that used it: two definitions over one tag's numbers could give "
                + "the same string twice, so this server does not serve it. Give this server the recorded "
                + "definition, or the changed format a new tag (leaf.formats." + format + ".tag)");
    }
}
