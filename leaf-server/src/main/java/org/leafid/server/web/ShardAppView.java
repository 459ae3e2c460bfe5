package org.leafid.server.web;

/**
 * One app of {@code /api/shard/apps}.
 *
 * @param shards how many of the 64 shards have a row
 * @param maxLimitId every ID of the app is below it; "0" for no limit (a string: it may pass 2^53)
 * @param headroom the fraction of the app's index space not yet reserved (1 = untouched, 0 = spent)
 * @param buffer where its indexes wait: {@code memory} or {@code redis}
 * @param opaque whether indexes are permuted by {@code leaf.shard.opaque-key}
 */
public record ShardAppView(int appId, String appName, int shards, int step, String maxLimitId, double headroom,
        String buffer, boolean opaque) {}
