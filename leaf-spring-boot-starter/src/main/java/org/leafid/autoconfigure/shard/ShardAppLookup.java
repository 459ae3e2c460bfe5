package org.leafid.autoconfigure.shard;

import java.util.function.IntFunction;
import org.leafid.core.shard.AppModeConflictException;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardAppDirectory;
import org.leafid.core.shard.ShardStoreException;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The app of an id, as the generator looks it up on every ID: the directory's entry (an array
 * read), and only when there is none, why not. "Not known yet" is not "unknown": before the app
 * list has been read once the answer is {@link ShardStoreException} (503, so a client tries
 * another server), an app whose mode this server may not issue in is {@link AppModeConflictException}
 * (503), and an app not listed makes the list be re-read once (at most once a second per app id) before the
 * generator answers unknown (404).
 */
final class ShardAppLookup implements IntFunction<ShardApp> {

    private final ShardAppDirectory directory;
    /** Looked up at the first miss: the refresher's listeners (the meters) depend on the generator that uses this. */
    private final ObjectProvider<ShardAppRefresher> refresher;

    ShardAppLookup(ShardAppDirectory directory, ObjectProvider<ShardAppRefresher> refresher) {
        this.directory = directory;
        this.refresher = refresher;
    }

    @Override
    public ShardApp apply(int appId) {
        ShardApp app = directory.app(appId);
        return app != null ? app : notServed(appId);
    }

    private ShardApp notServed(int appId) {
        ShardAppRefresher apps = refresher.getIfAvailable();
        if (!directory.loaded()) {
            RuntimeException failure = apps == null ? null : apps.lastFailure();
            throw new ShardStoreException("the app list of id_alloc has not been read yet"
                    + (failure == null ? "" : ": " + failure.getMessage()), failure);
        }
        requireServable(appId);
        if (apps == null) {
            return null;
        }
        apps.refreshOnDemand(appId);
        ShardApp app = directory.app(appId);
        if (app == null) {
            requireServable(appId);
        }
        return app;
    }

    private void requireServable(int appId) {
        String refusal = directory.refusal(appId);
        if (refusal != null) {
            throw new AppModeConflictException(appId, refusal);
        }
    }
}
