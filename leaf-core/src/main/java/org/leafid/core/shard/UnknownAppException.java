package org.leafid.core.shard;

import org.leafid.core.LeafException;

/** The app id has no row in {@code id_alloc}. */
public final class UnknownAppException extends LeafException {

    private final int appId;

    public UnknownAppException(int appId) {
        super("App " + appId + " is not in id_alloc");
        this.appId = appId;
    }

    public int appId() {
        return appId;
    }
}
