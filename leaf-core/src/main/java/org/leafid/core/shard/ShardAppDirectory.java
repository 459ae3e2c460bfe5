package org.leafid.core.shard;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The apps of {@code id_alloc} as last read: what {@link ShardIdGenerator} looks an app up in on
 * every ID, so that no ID reads the store. The server refreshes it on a schedule and after it
 * creates an app. Thread-safe: a refresh publishes a new immutable table.
 */
public final class ShardAppDirectory {

    private static final Logger log = LoggerFactory.getLogger(ShardAppDirectory.class);

    private final ShardStore store;
    /** Indexed by app id; replaced whole, never written in place. */
    private volatile ShardApp[] byId = new ShardApp[ShardId.MAX_APP_ID + 1];
    private volatile List<ShardApp> apps = List.of();
    /** Apps listed but not served here, with the reason; replaced whole by each update. */
    private volatile Map<Integer, String> refused = Map.of();
    private volatile boolean loaded;

    public ShardAppDirectory(ShardStore store) {
        this.store = store;
    }

    /**
     * Reads the apps from the store.
     *
     * @throws ShardStoreException when the store cannot list them; the apps last read stay
     */
    public List<ShardApp> refresh() {
        List<ShardApp> listed = store.apps();
        update(listed);
        return listed;
    }

    /**
     * Takes a listing read elsewhere (for example by {@link MemoryShardIndexSource#refresh()},
     * so that the store is read once per refresh). Apps whose id does not fit the 8 bits of the
     * ID layout are left out with a warning: no ID could name them.
     */
    public void update(List<ShardApp> listed) {
        update(listed, Map.of());
    }

    /**
     * As {@link #update(List)}, leaving out the apps of {@code refusals} (app id to the reason this
     * server may not serve it), which {@link #refusal} then answers with.
     */
    public synchronized void update(List<ShardApp> listed, Map<Integer, String> refusals) {
        ShardApp[] table = new ShardApp[ShardId.MAX_APP_ID + 1];
        List<ShardApp> kept = new ArrayList<>();
        for (ShardApp app : listed) {
            if (app.appId() < 0 || app.appId() > ShardId.MAX_APP_ID) {
                log.warn("id_alloc app {} ('{}') is not served: shard-mode app ids are 0..{} (8 bits of the ID)",
                        app.appId(), app.appName(), ShardId.MAX_APP_ID);
                continue;
            }
            if (refusals.containsKey(app.appId())) {
                continue;
            }
            table[app.appId()] = app;
            kept.add(app);
        }
        byId = table;
        apps = List.copyOf(kept);
        refused = Map.copyOf(refusals);
        loaded = true;
    }

    /** Whether the app list has been read at least once: before that, no app is known to be unknown. */
    public boolean loaded() {
        return loaded;
    }

    /** Why this server does not serve an app that the store lists, or null when it does (or none is listed). */
    public String refusal(int appId) {
        return refused.get(appId);
    }

    /** The apps listed but not served here, with the reasons. */
    public Map<Integer, String> refusals() {
        return refused;
    }

    /** The app, or null when it was not in the store at the last refresh (or the id is out of range). */
    public ShardApp app(int appId) {
        ShardApp[] table = byId;
        return appId >= 0 && appId < table.length ? table[appId] : null;
    }

    /** Every app served, in the store's order (without the refused ones). */
    public List<ShardApp> apps() {
        return apps;
    }
}
