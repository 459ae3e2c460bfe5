package org.leafid.redis;

import java.time.InstantSource;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.leafid.core.LeafException;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.Sleeper;
import org.leafid.core.shard.IssuedWatermarks;
import org.leafid.core.shard.ShardBlock;
import org.leafid.core.shard.ShardIndexSource;
import org.leafid.core.shard.ShardStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Shard indexes from the Redis lists of the Redis-queue ID services ({@code leaf.shard.buffer=redis}):
 * LPOP from {@code id.gen.idList_{appId}_{shardId}}, refilled when {@code LLEN <= 0.2 x step} under
 * the lock {@code id.gen.lock_{appId}_{shardId}} with a block reserved from the {@link ShardStore},
 * so a deployment of theirs can switch to this server and a list they left is served as it is.
 *
 * <p>The store stays the source of truth. When Redis fails, indexes come from {@code fallback}
 * (blocks reserved from the same store, so never one issued before) and Redis is tried again once
 * per retry interval. Popped indexes are checked against the highest index this instance popped
 * and the shared {@link IssuedWatermarks}: a list that hands out an index not above them went back
 * in time (a replica promoted while it lagged) and is discarded, never served. Thread-safe.
 */
public final class RedisShardIndexSource implements ShardIndexSource {

    private static final Logger LOG = LoggerFactory.getLogger(RedisShardIndexSource.class);
    private static final long LOCK_POLL_MILLIS = 5;
    /** Discarded lists in one call before the rest of the call is served from memory. */
    private static final int MAX_DISCARDS_PER_CALL = 2;

    private final RedisShardLists lists;
    private final ShardStore store;
    private final IssuedWatermarks watermarks;
    private final ShardIndexSource fallback;
    private final RedisBufferSettings settings;
    private final InstantSource clock;
    private final Sleeper sleeper;
    private final RedisAvailability availability;
    private final ConcurrentMap<Long, ShardListState> states = new ConcurrentHashMap<>();
    /** Bumped each time Redis comes back, so every shard re-reads the watermark before its next pop. */
    private final AtomicLong returns = new AtomicLong();
    private final String lockOwner = UUID.randomUUID().toString();
    private final AtomicLong lockCount = new AtomicLong();
    private final ShardListGuard guard;

    public RedisShardIndexSource(StringRedisTemplate redis, ShardStore store, IssuedWatermarks watermarks,
            ShardIndexSource fallback, RedisBufferSettings settings, InstantSource clock, Sleeper sleeper) {
        this.lists = new RedisShardLists(redis);
        this.store = Objects.requireNonNull(store, "store");
        this.watermarks = Objects.requireNonNull(watermarks, "watermarks");
        this.fallback = Objects.requireNonNull(fallback, "fallback");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.availability = new RedisAvailability(clock, settings.retryInterval().toMillis());
        this.guard = new ShardListGuard(lists, watermarks);
    }

    @Override
    public long nextIndex(int appId, int shardId) {
        return nextIndexes(appId, shardId, 1)[0];
    }

    @Override
    public long[] nextIndexes(int appId, int shardId, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        ShardListState state = states.computeIfAbsent(key(appId, shardId), k -> new ShardListState(appId, shardId));
        long[] indexes = new long[count];
        int filled = 0;
        long ticket = availability.begin();
        if (ticket != RedisAvailability.DO_NOT_TRY && !state.listsPaused(clock.millis())) {
            filled = fillFromList(state, indexes, ticket);
        }
        if (filled < count) {
            long[] rest = fallback.nextIndexes(appId, shardId, count - filled);
            System.arraycopy(rest, 0, indexes, filled, rest.length);
        }
        return indexes;
    }

    /** True while indexes come from the memory fallback because Redis does not answer. */
    public boolean servingFromMemory() {
        return availability.isDown();
    }

    /** The length of an (app, shard) list, for the queue-length gauge; -1 when Redis does not answer. */
    public long listLength(int appId, int shardId) {
        try {
            return lists.length(ShardListKeys.list(appId, shardId));
        } catch (DataAccessException unreachable) {
            return -1;
        }
    }

    /**
     * Deletes the lists of apps that are no longer in {@code id_alloc} (called on the periodic refresh
     * of the apps), so that a re-created app id cannot be served its old indexes. Keys are found with
     * SCAN. Returns how many lists were deleted; when Redis does not answer, logs it and returns 0
     * (the next refresh tries again).
     */
    public int removeListsOfAppsOtherThan(Set<Integer> appIds) {
        Set<Integer> keep = Set.copyOf(appIds);
        AtomicInteger deleted = new AtomicInteger();
        try {
            lists.forEachListKey(listKey -> {
                OptionalInt appId = ShardListKeys.appIdOfList(listKey);
                if (appId.isPresent() && !keep.contains(appId.getAsInt())) {
                    lists.deleteList(listKey);
                    deleted.incrementAndGet();
                }
            });
        } catch (DataAccessException unreachable) {
            LOG.warn("Could not delete the Redis lists of removed apps ({}); the next refresh of the apps tries "
                    + "again", unreachable.toString());
        }
        states.keySet().removeIf(key -> !keep.contains((int) (key >>> 32)));
        if (deleted.get() > 0) {
            LOG.info("Deleted {} Redis lists of apps no longer in id_alloc", deleted.get());
        }
        return deleted.get();
    }

    /** Fills {@code indexes} from the list as far as it can; the caller takes the rest from memory. */
    private int fillFromList(ShardListState state, long[] indexes, long ticket) {
        int filled = 0;
        int discards = 0;
        try {
            while (filled < indexes.length) {
                guard.syncIfDue(state, clock.millis(), settings.watermarkInterval().toMillis(), returns.get());
                long floor = state.floor(); // 1. before the pop: see ShardListState.floor
                RedisShardLists.Popped popped = lists.pop(state.listKey, indexes.length - filled); // 2.
                long[] values = guard.check(state, popped, floor); // 3. null: rolled back, discarded
                if (values == null) {
                    if (++discards > MAX_DISCARDS_PER_CALL) {
                        break;
                    }
                    continue;
                }
                for (long value : values) {
                    state.popped(value);
                    indexes[filled++] = value;
                }
                if (filled == indexes.length) {
                    if (state.isLow(popped.lengthLeft())) {
                        refillAfterPop(state);
                    }
                } else if (!refillEmpty(state)) {
                    break;
                }
            }
            if (availability.answered(ticket)) {
                returns.incrementAndGet();
            }
        } catch (DataAccessException redisFailed) {
            if (availability.failed(redisFailed)) {
                guard.writeAll(states.values());
            }
        }
        return filled;
    }

    /** The list ran low after a pop: refill now if no other instance is, serving what was popped anyway. */
    private void refillAfterPop(ShardListState state) {
        try {
            refill(state);
        } catch (LeafException storeFailed) {
            // The indexes already popped are good; the list is retried after the interval, memory serves meanwhile.
            state.pauseLists(clock.millis() + settings.retryInterval().toMillis());
            LOG.warn("Could not refill Redis list {} from id_alloc ({}); it is served until empty and retried in {} ms",
                    state.listKey, storeFailed.getMessage(), settings.retryInterval().toMillis());
        }
    }

    /**
     * The list is empty: refill it, or wait a bounded time for the instance holding the lock to do so.
     * False when that wait ran out: the shard is served from memory for a retry interval (the holder
     * may have died, and its lock lasts {@code lockTtl}).
     */
    private boolean refillEmpty(ShardListState state) {
        long deadline = clock.millis() + settings.lockWait().toMillis();
        while (!refill(state)) {
            if (lists.length(state.listKey) > 0) {
                return true;
            }
            if (clock.millis() >= deadline) {
                state.pauseLists(clock.millis() + settings.retryInterval().toMillis());
                LOG.warn("Redis list {} stayed empty for {} ms while another instance held {}; the shard is served "
                        + "from blocks reserved in the database for {} ms", state.listKey,
                        settings.lockWait().toMillis(), state.lockKey, settings.retryInterval().toMillis());
                return false;
            }
            try {
                sleeper.sleepMillis(LOCK_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LeafInterruptedException("the refill of Redis list " + state.listKey, e);
            }
        }
        return true;
    }

    /** Refills under the lock; false when another instance holds it. Store failures propagate. */
    private boolean refill(ShardListState state) {
        String token = lockOwner + ":" + lockCount.incrementAndGet();
        if (!lists.tryLock(state.lockKey, token, settings.lockTtl())) {
            return false;
        }
        try {
            // Another instance may have refilled between our LLEN and our lock.
            if (!state.isLow(lists.length(state.listKey))) {
                return true;
            }
            guard.sync(state);
            ShardBlock block = store.reserve(state.appId, state.shardId, 1);
            state.learnStep(block.rowStep());
            lists.push(state.listKey, block);
            LOG.info("Refilled Redis list {} with indexes {}..{}", state.listKey, block.firstIndex(),
                    block.lastIndex());
            return true;
        } finally {
            try {
                lists.unlock(state.lockKey, token);
            } catch (DataAccessException unlockFailed) {
                LOG.warn("Could not release {} ({}); it expires within {}", state.lockKey, unlockFailed.toString(),
                        settings.lockTtl());
            }
        }
    }

    private static long key(int appId, int shardId) {
        return ((long) appId << 32) | (shardId & 0xFFFFFFFFL);
    }

    @Override
    public String toString() {
        return "RedisShardIndexSource[" + (availability.isDown() ? "memory (Redis down)" : "redis") + ", shards "
                + states.size() + "]";
    }
}
