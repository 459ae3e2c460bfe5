package org.leafid.server.admin;

import org.leafid.core.LeafException;

/** An app to create already has rows in {@code id_alloc}. */
final class AppExistsException extends LeafException {

    private final int appId;

    AppExistsException(int appId) {
        super("App " + appId + " already has rows in id_alloc");
        this.appId = appId;
    }

    int appId() {
        return appId;
    }
}
