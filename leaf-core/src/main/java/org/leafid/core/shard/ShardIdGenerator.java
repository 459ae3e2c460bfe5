package org.leafid.core.shard;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * Issues shard-mode IDs: the shard from the gate pass (or round-robin over the app's shards
 * without one), the index from the {@link ShardIndexSource}, and the app's {@code max_limit_id}
 * enforced: an index past the shard's {@link ShardLimit#maxIndex} is spent and answered with
 * {@link AppLimitReachedException}, never wrapped into an ID that was issued before.
 *
 * <p>With an {@link OpaquePermutation}, the index {@code i} (1 .. maxIndex of its shard) is placed
 * in the ID as {@code perm(i - 1, maxIndex) + 1}: unique, within the limit, and consecutive
 * indexes no longer show how many IDs were issued in between. The permutation's range is the
 * shard's maxIndex, so with a key the app's {@code max_limit_id} must not change (the server
 * records key and limit per app).
 *
 * <p>Apps are looked up on every ID in what {@code apps} returns (a {@link ShardAppDirectory}
 * refreshed by the server), never in the store. Thread-safe and lock-free.
 */
public final class ShardIdGenerator {

    private final IntFunction<ShardApp> apps;
    private final ShardIndexSource source;
    private final OpaquePermutation opaque;
    /** Per app id, what this generator derived from its row: limits, shards, round-robin position. */
    private final AtomicReferenceArray<AppState> states = new AtomicReferenceArray<>(ShardId.MAX_APP_ID + 1);
    /** IDs handed out per app id, read by the meters at scrape time. */
    private final LongAdder[] issued = new LongAdder[ShardId.MAX_APP_ID + 1];

    /**
     * @param apps the app of an id, or null when there is none (for example {@code directory::app})
     * @param opaque the permutation of indexes, or null for indexes placed as they are
     */
    public ShardIdGenerator(IntFunction<ShardApp> apps, ShardIndexSource source, OpaquePermutation opaque) {
        this.apps = apps;
        this.source = source;
        this.opaque = opaque;
        for (int i = 0; i < issued.length; i++) {
            issued[i] = new LongAdder();
        }
    }

    public ShardIdGenerator(IntFunction<ShardApp> apps, ShardIndexSource source) {
        this(apps, source, null);
    }

    /**
     * The next ID of the app, in the gate pass's shard, or in the next shard round-robin when
     * {@code gatePass} is null.
     *
     * @throws IllegalArgumentException when the app id is not 0..255 or the gate pass is over 256 characters
     * @throws UnknownAppException / UnknownShardException when the app, or its row for the shard, does not exist
     * @throws AppLimitReachedException when the shard (round-robin: every shard) has no index left below the limit
     * @throws ShardStoreException when no index could be had within the source's bounded wait
     */
    public long nextId(int appId, String gatePass) {
        int gateShard = gatePass == null ? -1 : ShardId.shardOf(gatePass);
        AppState app = state(appId);
        if (gateShard >= 0) {
            app.requireShard(gateShard);
            requireNotSpent(app, gateShard);
            long id = place(app, gateShard, source.nextIndex(appId, gateShard));
            issued[appId].increment();
            return id;
        }
        int shards = app.shards.length;
        int start = app.nextRoundRobin();
        for (int i = 0; i < shards; i++) {
            int shardId = app.shards[(start + i) % shards];
            if (app.spent(shardId)) {
                continue;
            }
            long index = source.nextIndex(appId, shardId);
            if (index <= app.maxIndex[shardId]) {
                long id = place(app, shardId, index);
                issued[appId].increment();
                return id;
            }
            app.markSpent(shardId);
        }
        throw new AppLimitReachedException(appId, app.shards[start], app.app.maxLimitId());
    }

    /**
     * {@code count} IDs of the app. With a gate pass all are in its shard, and the call fails
     * whole when the shard cannot give them all below the limit (the indexes taken are spent).
     * Without one they come from one shard, round-robin per call, and go on in the next shards
     * when that one reaches the limit.
     *
     * @throws IllegalArgumentException when count is below 1, or as {@link #nextId}
     */
    public long[] nextIds(int appId, String gatePass, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        int gateShard = gatePass == null ? -1 : ShardId.shardOf(gatePass);
        AppState app = state(appId);
        if (gateShard >= 0) {
            app.requireShard(gateShard);
            requireNotSpent(app, gateShard);
            long[] indexes = source.nextIndexes(appId, gateShard, count);
            long[] ids = new long[indexes.length];
            for (int i = 0; i < indexes.length; i++) {
                ids[i] = place(app, gateShard, indexes[i]);
            }
            issued[appId].add(ids.length);
            return ids;
        }
        long[] ids = new long[count];
        int filled = 0;
        int shards = app.shards.length;
        int start = app.nextRoundRobin();
        for (int i = 0; i < shards && filled < count; i++) {
            int shardId = app.shards[(start + i) % shards];
            if (app.spent(shardId)) {
                continue;
            }
            long max = app.maxIndex[shardId];
            for (long index : source.nextIndexes(appId, shardId, count - filled)) {
                if (index <= max) {
                    ids[filled++] = placeWithin(app, shardId, index);
                } else {
                    app.markSpent(shardId);
                }
            }
        }
        if (filled < count) {
            throw new AppLimitReachedException(appId, app.shards[start], app.app.maxLimitId());
        }
        issued[appId].add(ids.length);
        return ids;
    }

    /** IDs this generator handed out for the app since it was made. */
    public long issuedCount(int appId) {
        return issued[appId].sum();
    }

    /**
     * The index an ID was issued from: its own index bits, or with an opaque key the index they
     * permute, which only the key reveals (the server answers it to the admin only).
     *
     * @throws IllegalArgumentException when the id is not a shard-mode ID of this app's range
     * @throws UnknownAppException when an opaque ID's app is not known (its range is needed)
     */
    public long issuedIndex(long id) {
        ShardId parts = ShardId.decode(id);
        if (opaque == null) {
            return parts.index();
        }
        AppState app = state(parts.appId());
        long max = app.maxIndex[parts.shardId()];
        if (parts.index() > max) {
            throw new IllegalArgumentException("id " + id + " has index " + parts.index() + ", above the "
                    + max + " that app " + parts.appId() + " shard " + parts.shardId() + " can issue: not its ID");
        }
        return opaque.unpermute(parts.index() - 1, max) + 1;
    }

    /** Whether indexes are permuted (an opaque key is set). */
    public boolean opaque() {
        return opaque != null;
    }

    /**
     * A shard known to be spent is refused before its source is asked: each ask would reserve
     * another block past the limit in the database, for nothing.
     */
    private static void requireNotSpent(AppState app, int shardId) {
        if (app.spent(shardId)) {
            throw new AppLimitReachedException(app.app.appId(), shardId, app.app.maxLimitId());
        }
    }

    private long place(AppState app, int shardId, long index) {
        if (index > app.maxIndex[shardId]) {
            app.markSpent(shardId);
            throw new AppLimitReachedException(app.app.appId(), shardId, app.app.maxLimitId());
        }
        return placeWithin(app, shardId, index);
    }

    private long placeWithin(AppState app, int shardId, long index) {
        long placed = opaque == null ? index : opaque.permute(index - 1, app.maxIndex[shardId]) + 1;
        return ShardId.compose(app.app.appId(), shardId, placed);
    }

    private AppState state(int appId) {
        if (appId < 0 || appId > ShardId.MAX_APP_ID) {
            throw new IllegalArgumentException("app id must be 0.." + ShardId.MAX_APP_ID + ": " + appId);
        }
        ShardApp app = apps.apply(appId);
        if (app == null) {
            throw new UnknownAppException(appId);
        }
        AppState known = states.get(appId);
        if (known != null && known.app == app) {
            return known;
        }
        // A refresh made a new record: keep what was learnt (spent shards) when the row is the same.
        AppState fresh = known != null && known.app.equals(app) ? known.rebind(app) : new AppState(app);
        return states.compareAndSet(appId, known, fresh) ? fresh : states.get(appId);
    }

    /** What one version of an app's rows means for issuing. */
    private static final class AppState {

        final ShardApp app;
        final int[] shards;
        final long shardMask;
        /** Per shard id 0..63: the largest index below the limit. */
        final long[] maxIndex;
        final AtomicInteger roundRobin;
        /**
         * Shards that returned an index past the limit: round-robin skips them instead of spending
         * an index each time. Only a hint, dropped when the app's row changes (a raised limit).
         */
        final AtomicLong spentMask;

        AppState(ShardApp app) {
            this(app, new AtomicInteger(), new AtomicLong());
        }

        private AppState(ShardApp app, AtomicInteger roundRobin, AtomicLong spentMask) {
            this.app = app;
            this.shards = app.shards().stream().mapToInt(Integer::intValue)
                    .filter(shard -> shard >= 0 && shard < ShardId.SHARDS).toArray();
            if (shards.length == 0) {
                throw new UnknownAppException(app.appId());
            }
            long mask = 0;
            for (int shard : shards) {
                mask |= 1L << shard;
            }
            this.shardMask = mask;
            ShardLimit limit = ShardLimit.of(app);
            this.maxIndex = new long[ShardId.SHARDS];
            for (int shard = 0; shard < ShardId.SHARDS; shard++) {
                maxIndex[shard] = limit.maxIndex(shard);
            }
            this.roundRobin = roundRobin;
            this.spentMask = spentMask;
        }

        AppState rebind(ShardApp sameApp) {
            return new AppState(sameApp, roundRobin, spentMask);
        }

        void requireShard(int shardId) {
            if ((shardMask & 1L << shardId) == 0) {
                throw new UnknownShardException(app.appId(), shardId);
            }
        }

        int nextRoundRobin() {
            return (roundRobin.getAndIncrement() & Integer.MAX_VALUE) % shards.length;
        }

        boolean spent(int shardId) {
            return (spentMask.get() & 1L << shardId) != 0;
        }

        void markSpent(int shardId) {
            spentMask.getAndUpdate(mask -> mask | 1L << shardId);
        }
    }
}
