package org.leafid.jdbc.segment;

import org.leafid.core.LeafException;
import org.leafid.jdbc.SqlFailures;

/** {@code leaf_alloc} could not be read or changed: the database failed or is unreachable. */
public final class TagTableException extends LeafException {

    TagTableException(String action, Throwable cause) {
        super("Could not " + action + " leaf_alloc: " + SqlFailures.rootCause(cause).getMessage(), cause);
    }
}
