package org.leafid.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.leafid.core.shard.ShardBlock;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Redis commands of the buffer, one method per step, each one round trip. Failures are
 * Spring's {@code DataAccessException}s, left to the caller, which falls back to memory on them.
 */
final class RedisShardLists {

    /** Pushed in slices so that a step of a million does not make one huge command. */
    private static final int PUSH_SLICE = 10_000;

    /**
     * Pops up to ARGV[1] entries and reads the length left, in one atomic step: {length, v1, v2...}.
     * A loop of LPOP rather than LPOP with a count, which needs Redis 6.2.
     */
    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> POP = RedisScript.of("""
            local popped = {0}
            for i = 1, tonumber(ARGV[1]) do
              local v = redis.call('LPOP', KEYS[1])
              if not v then break end
              popped[#popped + 1] = v
            end
            popped[1] = redis.call('LLEN', KEYS[1])
            return popped
            """, List.class);

    /** Deletes the lock only while it still holds our token: an expired lock may be someone else's now. */
    private static final RedisScript<Long> UNLOCK = RedisScript.of("""
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              return redis.call('DEL', KEYS[1])
            end
            return 0
            """, Long.class);

    private final StringRedisTemplate redis;

    RedisShardLists(StringRedisTemplate redis) {
        this.redis = Objects.requireNonNull(redis, "redis");
    }

    /** What one pop took from the head of a list, in list order, and the length it left. */
    record Popped(List<String> values, long lengthLeft) {
    }

    Popped pop(String listKey, int count) {
        List<?> reply = redis.execute(POP, List.of(listKey), Integer.toString(count));
        if (reply == null || reply.isEmpty()) {
            throw new IllegalStateException("Redis answered the pop script on " + listKey + " with nothing");
        }
        List<String> values = new ArrayList<>(reply.size() - 1);
        for (int i = 1; i < reply.size(); i++) {
            values.add(String.valueOf(reply.get(i)));
        }
        return new Popped(values, ((Number) reply.get(0)).longValue());
    }

    long length(String listKey) {
        Long length = redis.opsForList().size(listKey);
        return length == null ? 0 : length;
    }

    /** RPUSHes the block in ascending order, as their service does, so that LPOP hands it out in order. */
    void push(String listKey, ShardBlock block) {
        long next = block.firstIndex();
        while (next <= block.lastIndex()) {
            int size = (int) Math.min(PUSH_SLICE, block.lastIndex() - next + 1);
            String[] slice = new String[size];
            for (int i = 0; i < size; i++) {
                slice[i] = Long.toString(next + i);
            }
            redis.opsForList().rightPushAll(listKey, slice);
            next += size;
        }
    }

    boolean tryLock(String lockKey, String token, Duration ttl) {
        return Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(lockKey, token, ttl));
    }

    void unlock(String lockKey, String token) {
        redis.execute(UNLOCK, List.of(lockKey), token);
    }

    void delete(String key) {
        redis.delete(key);
    }

    /** Every list key of their shape, found with SCAN (never KEYS, which blocks a busy Redis). */
    void forEachListKey(Consumer<String> action) {
        ScanOptions options = ScanOptions.scanOptions().match(ShardListKeys.LIST_PATTERN).count(1000).build();
        try (Cursor<String> keys = redis.scan(options)) {
            keys.forEachRemaining(action);
        }
    }
}
