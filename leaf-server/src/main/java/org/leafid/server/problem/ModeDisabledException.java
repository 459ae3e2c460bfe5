package org.leafid.server.problem;

import org.leafid.core.LeafException;

/** A request for a mode that this server has switched off. */
public final class ModeDisabledException extends LeafException {

    public ModeDisabledException(String mode, String key) {
        this("The " + mode + " mode is disabled on this server (" + key + "=false)");
    }

    /** Shard mode, whose switch has a default that depends on the database. */
    public static ModeDisabledException shard() {
        return new ModeDisabledException("The shard mode is disabled on this server: it needs leaf.shard.enable=true "
                + "(unset, it is on only with the embedded database) and id_alloc in the database");
    }

    private ModeDisabledException(String message) {
        super(message);
    }
}
