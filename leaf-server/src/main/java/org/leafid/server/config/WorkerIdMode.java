package org.leafid.server.config;

/** Where the snowflake worker id comes from ({@code leaf.snowflake.mode}). */
public enum WorkerIdMode {
    /** Leaf's persistent sequential ZooKeeper node per ip:port. */
    ZK_NORMAL,
    /** A pool of 1024 ids in ZooKeeper, leased and returned. */
    ZK_RECYCLE,
    /** A row per ip:port in {@code leaf_workerid_alloc}. */
    MYSQL,
    /** From {@code leaf.snowflake.local.*}. */
    LOCAL
}
