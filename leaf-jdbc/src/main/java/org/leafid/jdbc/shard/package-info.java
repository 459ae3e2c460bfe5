/**
 * Shard mode's tables: {@link org.leafid.jdbc.shard.IdAllocRepository}, the {@code ShardStore} on
 * {@code id_alloc} (the Redis-queue services' table, unchanged, with their block rule: UPDATE
 * {@code max_id = max_id + step} then SELECT in one transaction, the block being
 * {@code old max_id + 1 .. new max_id}), which also lists rows and creates an app's 64 rows for the
 * apps view and the admin API; and on Leaf's own tables of {@code sql/leaf_shard.sql}, kept apart so
 * that {@code id_alloc} stays theirs, {@link org.leafid.jdbc.shard.ShardKeyFingerprints} (the opaque
 * key's fingerprint per app) and {@link org.leafid.jdbc.shard.JdbcIssuedWatermarks} (the highest index
 * issued per app and shard, the Redis buffer's guard against a lagging replica).
 */
package org.leafid.jdbc.shard;
