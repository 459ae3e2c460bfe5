package org.leafid.core.shard;

import org.leafid.core.LeafException;

/**
 * This server may not serve the app: the app's mode (plain or opaque, and with which key) is
 * recorded in the database and differs from this server's, so its IDs could land on IDs the app
 * has issued. The reason says which modes met and what to change.
 */
public final class AppModeConflictException extends LeafException {

    private final int appId;

    public AppModeConflictException(int appId, String reason) {
        super(reason);
        this.appId = appId;
    }

    public int appId() {
        return appId;
    }
}
