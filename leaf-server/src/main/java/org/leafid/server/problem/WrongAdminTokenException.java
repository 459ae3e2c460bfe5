package org.leafid.server.problem;

import org.leafid.core.LeafException;

/** A request presented a bearer token that is not {@code leaf.admin.token}: 403 wherever it is sent. */
public final class WrongAdminTokenException extends LeafException {

    public WrongAdminTokenException() {
        super("The bearer token is not this server's leaf.admin.token");
    }
}
