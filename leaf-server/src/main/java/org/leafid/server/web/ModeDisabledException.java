package org.leafid.server.web;

import org.leafid.core.LeafException;

/** A request for a mode that this server has switched off. */
public final class ModeDisabledException extends LeafException {

    public ModeDisabledException(String mode, String key) {
        super("The " + mode + " mode is disabled on this server (" + key + "=false)");
    }
}
