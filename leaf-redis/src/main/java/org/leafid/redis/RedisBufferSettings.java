package org.leafid.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * The timings of the Redis buffer. Redis command and connect timeouts are not here: they belong to
 * the connection factory ({@code spring.data.redis.timeout}, {@code spring.data.redis.connect-timeout}),
 * and bound every wait on Redis.
 *
 * @param lockTtl expiry of the refill lock {@code id.gen.lock_*} (60 s in their service), so that an
 *     instance that dies while refilling does not block the shard for ever
 * @param lockWait how long a caller that found the list empty waits for another instance's refill
 *     before it serves that request from memory
 * @param retryInterval how often Redis is tried again while it is down, and how long a shard whose
 *     refill failed serves from memory before its list is tried again
 * @param watermarkInterval how often each (app, shard) writes its highest popped index to the
 *     watermarks and reads the one every instance wrote (the lagging-replica guard)
 */
public record RedisBufferSettings(Duration lockTtl, Duration lockWait, Duration retryInterval,
        Duration watermarkInterval) {

    public RedisBufferSettings {
        requirePositive(lockTtl, "lockTtl");
        requirePositive(lockWait, "lockWait");
        requirePositive(retryInterval, "retryInterval");
        requirePositive(watermarkInterval, "watermarkInterval");
    }

    /** Their service's 60 s lock; 1 s lock wait; Redis retried every 5 s; watermarks every second. */
    public static RedisBufferSettings defaults() {
        return new RedisBufferSettings(Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofSeconds(5),
                Duration.ofSeconds(1));
    }

    private static void requirePositive(Duration value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }
}
