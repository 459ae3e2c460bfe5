package org.leafid.server.admin;

import org.leafid.core.LeafException;

/** An app to create has a mode recorded (plain or opaque) that is not this server's. */
final class AppModeTakenException extends LeafException {

    AppModeTakenException(String reason) {
        super(reason);
    }
}
