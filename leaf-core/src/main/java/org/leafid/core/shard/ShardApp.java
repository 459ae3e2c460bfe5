package org.leafid.core.shard;

import java.util.List;

/**
 * An app of {@code id_alloc}: its rows (one per shard it has) as a whole.
 *
 * @param step the step of its rows (the smallest when they differ)
 * @param maxLimitId every ID of the app is below this; 0 means no limit (63 bits)
 * @param shards the shard ids that have a row, ascending (normally 0..63)
 */
public record ShardApp(int appId, String appName, int step, long maxLimitId, List<Integer> shards) {

    public ShardApp {
        shards = List.copyOf(shards);
    }
}
