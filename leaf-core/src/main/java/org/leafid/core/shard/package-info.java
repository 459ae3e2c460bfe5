/**
 * Shard mode: per-app IDs {@code index << 14 | shardId << 8 | appId}, where the shard comes from
 * a "gate pass" (user name, phone, e-mail) so that every ID of one user carries that user's
 * database shard, as the Redis-queue ID services derived from Leaf build them. Here are the SPI
 * of the {@code id_alloc} table ({@link org.leafid.core.shard.ShardStore}), the source of indexes
 * ({@link org.leafid.core.shard.ShardIndexSource}) and the failures the HTTP API answers for.
 * Unlike those services, an app never gets an ID at or above its {@code max_limit_id} and never
 * a repeated one.
 */
package org.leafid.core.shard;
