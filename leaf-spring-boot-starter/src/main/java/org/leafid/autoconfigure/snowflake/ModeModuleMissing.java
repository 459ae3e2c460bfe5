package org.leafid.autoconfigure.snowflake;

import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.mode.WorkerIdMode;

/**
 * The refusal of a worker-id mode whose module is not on the class path: leaf-jdbc, leaf-zookeeper
 * and leaf-redis are optional dependencies of the starter, so an application that never uses them
 * carries none of their libraries, and one that chooses their mode without them is told which to add.
 */
public final class ModeModuleMissing {

    private ModeModuleMissing() {}

    /** @param module the artifact the mode needs, e.g. {@code leaf-zookeeper} */
    public static LeafConfigurationException of(WorkerIdMode mode, String module) {
        return new LeafConfigurationException("leaf.snowflake.mode", "is " + mode.key() + ", but " + module
                + " is not on the class path.", "Add the dependency org.leafid:" + module
                + " (docs/embedding.md), or choose another leaf.snowflake.mode.");
    }
}
