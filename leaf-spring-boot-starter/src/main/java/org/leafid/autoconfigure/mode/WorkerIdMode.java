package org.leafid.autoconfigure.mode;

import java.util.Locale;

/**
 * Where the snowflake worker id comes from ({@code leaf.snowflake.mode}). Spring's binder reads
 * {@code zk_normal}, {@code zk-normal} and {@code ZK_NORMAL} alike, in the records and in
 * {@link ConditionalOnWorkerIdMode}; the default is {@link WorkerIdModeChoice}'s rule.
 *
 * <p>Each mode lives in packages named after it ({@link #packageName()}): in the starter, its
 * auto-configuration and settings; in the module it needs ({@link #module()}), its registry,
 * {@code <Mode>WorkerIdRegistry}. CONTRIBUTING.md has the checklist for adding one, and
 * {@code WorkerIdModePartsTest} fails for a mode that lacks a part.
 */
public enum WorkerIdMode {
    /** Leaf's persistent sequential ZooKeeper node per ip:port. */
    ZK_NORMAL("leaf-zookeeper"),
    /** A pool of 1024 ids in ZooKeeper, leased and returned. */
    ZK_RECYCLE("leaf-zookeeper"),
    /** A row per ip:port in {@code leaf_workerid_alloc}. */
    MYSQL("leaf-jdbc"),
    /** From {@code leaf.snowflake.local.*}. */
    LOCAL("leaf-core"),
    /** A new row per start in uid-generator's {@code WORKER_NODE}; its ID is the worker id. */
    DISPOSABLE("leaf-jdbc"),
    /** The StatefulSet ordinal at the end of the pod name, plus {@code leaf.snowflake.kubernetes.offset}. */
    KUBERNETES("leaf-core"),
    /** A pool of 1024 ids in Redis ({@code spring.data.redis.*}), leased, sticky per ip:port. */
    REDIS("leaf-redis");

    private final String module;

    WorkerIdMode(String module) {
        this.module = module;
    }

    /** Whether its worker ids are kept in ZooKeeper: then the fleet has a ZooKeeper configured. */
    public boolean keptInZookeeper() {
        return module.equals("leaf-zookeeper");
    }

    /** Whether its worker ids are kept in Redis: then the fleet has a Redis configured. */
    public boolean keptInRedis() {
        return module.equals("leaf-redis");
    }

    /** The artifact whose registry this mode uses: leaf-jdbc, leaf-zookeeper and leaf-redis are optional. */
    public String module() {
        return module;
    }

    /** The last part of the mode's packages: {@code zk_normal} lives in {@code …snowflake.zknormal}. */
    public String packageName() {
        return key().replace("_", "");
    }

    /** As written in {@code leaf.properties}: {@code zk_normal}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
