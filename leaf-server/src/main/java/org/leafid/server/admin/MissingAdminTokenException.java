package org.leafid.server.admin;

import org.leafid.core.LeafException;

/** An admin request came without {@code Authorization: Bearer <token>}. */
final class MissingAdminTokenException extends LeafException {

    MissingAdminTokenException() {
        super("This admin endpoint needs the header 'Authorization: Bearer <leaf.admin.token>'");
    }
}
