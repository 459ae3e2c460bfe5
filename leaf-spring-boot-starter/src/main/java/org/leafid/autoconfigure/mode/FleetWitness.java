package org.leafid.autoconfigure.mode;

import java.util.Locale;

/** {@code leaf.witness.fleet}: where the fleet's witness of segment reservations is kept. */
public enum FleetWitness {
    /** ZooKeeper when the worker-id mode uses it, Redis when the worker-id mode is {@code redis}, else none. */
    AUTO,
    NONE,
    REDIS,
    ZOOKEEPER;

    /** As the key is written. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
