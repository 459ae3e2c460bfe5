/**
 * The {@code redis} worker-id mode of snowflake: ids 0..1023 leased in Redis, sticky per
 * {@code ip:port}, renewed in the background, and waited out when Redis may have lost the leases
 * ({@link org.leafid.redis.worker.RedisWorkerIdRegistry} says why that is safe). Independent of
 * the shard buffer in {@code org.leafid.redis}; both reach Redis through Spring Boot's
 * {@code spring.data.redis.*}.
 */
package org.leafid.redis.worker;
