package org.leafid.autoconfigure.shard;

/**
 * Where shard-mode indexes wait to be issued, for the status page, {@code /api/shard/apps} and the
 * {@code shardBuffer} health details: the memory buffer, or the Redis lists (and whether the
 * memory fallback stands in for them while Redis does not answer).
 */
public interface ShardBufferStatus {

    /** {@code memory}, {@code redis}, or {@code memory (Redis down)}. */
    String source();

    /** Indexes waiting in the app's Redis lists, all shards together; -1 when not known or not Redis. */
    long queueLength(int appId);

    /** The memory buffer's status: no lists. */
    static ShardBufferStatus memory() {
        return new ShardBufferStatus() {
            @Override
            public String source() {
                return "memory";
            }

            @Override
            public long queueLength(int appId) {
                return -1;
            }
        };
    }
}
