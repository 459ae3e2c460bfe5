package org.leafid.autoconfigure.mode;

import java.util.Locale;

/**
 * Where the snowflake worker id comes from ({@code leaf.snowflake.mode}). Spring's binder reads
 * {@code zk_normal}, {@code zk-normal} and {@code ZK_NORMAL} alike, in the records and in
 * {@link ConditionalOnWorkerIdMode}; the default is {@link WorkerIdModeChoice}'s rule.
 */
public enum WorkerIdMode {
    /** Leaf's persistent sequential ZooKeeper node per ip:port. */
    ZK_NORMAL,
    /** A pool of 1024 ids in ZooKeeper, leased and returned. */
    ZK_RECYCLE,
    /** A row per ip:port in {@code leaf_workerid_alloc}. */
    MYSQL,
    /** From {@code leaf.snowflake.local.*}. */
    LOCAL,
    /** A new row per start in uid-generator's {@code WORKER_NODE}; its ID is the worker id. */
    DISPOSABLE,
    /** The StatefulSet ordinal at the end of the pod name, plus {@code leaf.snowflake.kubernetes.offset}. */
    KUBERNETES,
    /** A pool of 1024 ids in Redis ({@code spring.data.redis.*}), leased, sticky per ip:port. */
    REDIS;

    /** As written in {@code leaf.properties}: {@code zk_normal}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether this mode takes its worker id from ZooKeeper. */
    public boolean zookeeper() {
        return this == ZK_NORMAL || this == ZK_RECYCLE;
    }
}
