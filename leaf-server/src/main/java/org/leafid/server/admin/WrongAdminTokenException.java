package org.leafid.server.admin;

import org.leafid.core.LeafException;

/** An admin request presented a bearer token that is not {@code leaf.admin.token}. */
final class WrongAdminTokenException extends LeafException {

    WrongAdminTokenException() {
        super("The bearer token is not this server's leaf.admin.token");
    }
}
