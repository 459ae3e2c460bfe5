package org.leafid.core.shard;

import org.leafid.core.LeafException;

/** The shard's next ID would not be below the app's {@code max_limit_id}: its space is spent. */
public final class AppLimitReachedException extends LeafException {

    private final int appId;
    private final int shardId;
    private final long maxLimitId;

    public AppLimitReachedException(int appId, int shardId, long maxLimitId) {
        super("App " + appId + " shard " + shardId + " has issued every ID below its max_limit_id " + maxLimitId
                + "; IDs are never wrapped or repeated: raise max_limit_id if the protocol allows, or move to a new "
                + "app id");
        this.appId = appId;
        this.shardId = shardId;
        this.maxLimitId = maxLimitId;
    }

    public int appId() {
        return appId;
    }

    public int shardId() {
        return shardId;
    }

    public long maxLimitId() {
        return maxLimitId;
    }
}
