package org.leafid.core.shard;

/**
 * Where the next index of an (app, shard) comes from: leaf-core's in-memory double buffer over
 * the {@link ShardStore} ({@code leaf.shard.buffer=memory}), or the Redis lists of the
 * Redis-queue services ({@code redis}, module leaf-redis). Every index it returns was reserved
 * from the store and is returned once, by one instance, ever.
 */
public interface ShardIndexSource {

    /**
     * @throws UnknownAppException / UnknownShardException when the row does not exist
     * @throws ShardStoreException when no index can be had within the source's bounded wait
     */
    long nextIndex(int appId, int shardId);

    /** {@code count} indexes, each used once; not necessarily consecutive. */
    long[] nextIndexes(int appId, int shardId, int count);
}
