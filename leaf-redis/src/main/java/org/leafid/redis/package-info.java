/**
 * The Redis buffer of shard mode ({@code leaf.shard.buffer=redis}): the {@code id.gen.idList_*}
 * lists and {@code id.gen.lock_*} locks of the Redis-queue ID services, read and refilled the way
 * they do it, with the database as the source of truth, a memory fallback while Redis is down, and
 * a guard against lists that went back in time ({@link org.leafid.redis.RedisShardIndexSource}).
 */
package org.leafid.redis;
