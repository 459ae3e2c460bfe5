package org.leafid.jdbc.shard;

/**
 * One {@code id_alloc} row: one shard of an app. Indexes up to {@code maxId} are reserved (issued
 * or in some buffer); the next reservation starts at {@code maxId + 1}.
 *
 * @param description may be null
 */
public record IdAllocRow(
        int appId, String appName, int shardId, long maxId, int step, long maxLimitId, String description) {}
