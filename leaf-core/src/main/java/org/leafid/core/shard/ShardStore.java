package org.leafid.core.shard;

import java.util.List;

/**
 * Where shard-mode blocks are reserved: the {@code id_alloc} table (one row per app and shard),
 * shared by every instance. Implementations must be safe for concurrent use by many instances.
 */
public interface ShardStore {

    /**
     * Atomically advances the row's {@code max_id} by {@code blocks} times its step and returns
     * the indexes that reservation made this caller's: {@code old max_id + 1} .. {@code new max_id}
     * (the block rule of the Redis-queue ID services, not Leaf's).
     *
     * @param blocks at least 1; 1 reserves exactly the row's step
     * @throws UnknownAppException when the app has no row at all
     * @throws UnknownShardException when the app has rows but not this shard's
     * @throws ShardStoreException when the store cannot be reached or answers with an error
     */
    ShardBlock reserve(int appId, int shardId, int blocks);

    /** The apps that have rows now, by app id. */
    List<ShardApp> apps();
}
