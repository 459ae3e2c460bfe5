package org.leafid.core.shard;

/**
 * Indexes reserved for one (app, shard): {@code firstIndex} .. {@code lastIndex}, both included.
 *
 * @param rowStep the row's step at the time of the reservation
 */
public record ShardBlock(int appId, int shardId, long firstIndex, long lastIndex, int rowStep) {

    public ShardBlock {
        if (firstIndex < 1 || lastIndex < firstIndex) {
            throw new IllegalArgumentException("block " + firstIndex + ".." + lastIndex + " of app " + appId
                    + " shard " + shardId + " is empty or starts below 1");
        }
    }

    public long size() {
        return lastIndex - firstIndex + 1;
    }
}
