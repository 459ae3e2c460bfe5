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
     *
     * <p>The hash beside the list (KEYS[2]) keeps what every instance's pops have in common, checked
     * in the same step, so no instance needs to have synced anything:
     * <ul>
     *   <li>{@code here}, written by the first pop on a Redis process and never replicated
     *       ({@code redis.set_repl(redis.REPL_NONE)}): a hash without it that exists came from
     *       another process, a replica promoted by a failover (or a restart from an append-only
     *       file): {-1}, nothing popped, since the list may hold indexes popped from the old
     *       process that this copy never received.</li>
     *   <li>{@code popped}, the highest index popped (replicated). An index at or below it means the
     *       list was put back from an older copy: {-2}, and what was popped is not served. Indexes
     *       are compared as Lua numbers, exact below 2^53, far above any shard index.</li>
     * </ul>
     * (Reading the process's {@code run_id} with {@code INFO} in every pop halved the pops a Redis
     * answers a second; the field costs one {@code HMGET}.)
     */
    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> POP = RedisScript.of("""
            local guard = redis.call('HMGET', KEYS[2], 'here', 'popped')
            if not guard[1] then
              if redis.call('EXISTS', KEYS[2]) == 1 then
                return {-1}
              end
              redis.set_repl(redis.REPL_NONE)
              redis.call('HSET', KEYS[2], 'here', '1')
              redis.set_repl(redis.REPL_ALL)
            end
            local high = tonumber(guard[2])
            local popped = {0}
            local top = nil
            for i = 1, tonumber(ARGV[1]) do
              local v = redis.call('LPOP', KEYS[1])
              if not v then break end
              local n = tonumber(v)
              if n and high and n <= high then
                return {-2}
              end
              if n then top = n end
              popped[#popped + 1] = v
            end
            if top then
              redis.call('HSET', KEYS[2], 'popped', string.format('%.0f', top))
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

    /** What one pop took from the head of a list, in list order, and the length it left; or why nothing is served. */
    record Popped(List<String> values, long lengthLeft, Refusal refusal) {
    }

    /** Why a pop serves nothing. */
    enum Refusal {
        NONE,
        /** The Redis answering is not the process the list was popped from (a failover, a restart). */
        OTHER_PROCESS,
        /** The list handed out an index at or below the highest popped from it: it was put back. */
        PUT_BACK
    }

    Popped pop(String listKey, int count) {
        List<?> reply = redis.execute(POP, List.of(listKey, ShardListKeys.guard(listKey)), Integer.toString(count));
        if (reply == null || reply.isEmpty()) {
            throw new IllegalStateException("Redis answered the pop script on " + listKey + " with nothing");
        }
        long first = ((Number) reply.get(0)).longValue();
        if (first < 0) {
            return new Popped(List.of(), 0, first == -1 ? Refusal.OTHER_PROCESS : Refusal.PUT_BACK);
        }
        List<String> values = new ArrayList<>(reply.size() - 1);
        for (int i = 1; i < reply.size(); i++) {
            values.add(String.valueOf(reply.get(i)));
        }
        return new Popped(values, first, Refusal.NONE);
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

    /**
     * Deletes a list, then its guard hash, so that the next pop records the process anew. The highest
     * index popped goes with it: the refill that follows reserves above everything reserved before.
     */
    void deleteList(String listKey) {
        redis.delete(listKey);
        redis.delete(ShardListKeys.guard(listKey));
    }

    /** Every list key of their shape, found with SCAN (never KEYS, which blocks a busy Redis). */
    void forEachListKey(Consumer<String> action) {
        ScanOptions options = ScanOptions.scanOptions().match(ShardListKeys.LIST_PATTERN).count(1000).build();
        try (Cursor<String> keys = redis.scan(options)) {
            keys.forEachRemaining(action);
        }
    }
}
