package org.leafid.server.id;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One app of {@code /api/shard/apps}.
 *
 * @param shards how many of the 64 shards have a row
 * @param maxLimitId every ID of the app is below it; "0" for no limit (a string: it may pass 2^53)
 * @param headroom the fraction of the app's index space not yet reserved (1 = untouched, 0 = spent)
 * @param buffer where its indexes come from: {@code memory}, {@code redis} or {@code memory (Redis down)}
 * @param queueLength indexes waiting in its Redis lists (all shards); absent without Redis
 * @param opaque whether indexes are permuted by {@code leaf.shard.opaque-key}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ShardAppView(int appId, String appName, int shards, int step, String maxLimitId, double headroom,
        String buffer, Long queueLength, boolean opaque) {}
