package org.leafid.server.problem;

import org.leafid.core.LeafException;

/** A tag or key in a request path breaks the allowed form {@code [A-Za-z0-9._:-]{1,128}}. */
public final class InvalidKeyException extends LeafException {

    public InvalidKeyException(String what) {
        super("The " + what + " must be 1 to 128 characters of letters, digits, '.', '_', ':' or '-'");
    }
}
