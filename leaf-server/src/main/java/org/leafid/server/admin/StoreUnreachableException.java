package org.leafid.server.admin;

import org.leafid.core.LeafException;
import org.leafid.jdbc.SqlFailures;

/** An admin step on the database's records failed: the database could not be reached or refused. */
final class StoreUnreachableException extends LeafException {

    StoreUnreachableException(String action, Throwable cause) {
        super(action + ": " + SqlFailures.rootCause(cause).getMessage(), cause);
    }
}
