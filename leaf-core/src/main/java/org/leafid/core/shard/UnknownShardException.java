package org.leafid.core.shard;

import org.leafid.core.LeafException;

/** The app has rows in {@code id_alloc}, but none for this shard. */
public final class UnknownShardException extends LeafException {

    private final int appId;
    private final int shardId;

    public UnknownShardException(int appId, int shardId) {
        super("App " + appId + " has no row for shard " + shardId + " in id_alloc");
        this.appId = appId;
        this.shardId = shardId;
    }

    public int appId() {
        return appId;
    }

    public int shardId() {
        return shardId;
    }
}
