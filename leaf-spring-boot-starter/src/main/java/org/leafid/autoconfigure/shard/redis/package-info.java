/**
 * Shard mode's Redis buffer in a Spring Boot application: {@code leaf.shard.buffer=redis} turns
 * Spring Boot's Redis connection ({@code spring.data.redis.*}) into leaf-redis's buffer on the
 * Redis-queue services' own keys, with its clean-up, status, meters and fail-fast client options.
 * A separate package so that nothing here is loaded where leaf-redis is not on the classpath.
 */
package org.leafid.autoconfigure.shard.redis;
