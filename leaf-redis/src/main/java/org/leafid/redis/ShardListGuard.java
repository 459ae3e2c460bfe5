package org.leafid.redis;

import java.util.Collection;
import java.util.List;
import org.leafid.core.shard.IssuedWatermarks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lagging-replica guard. Every list is filled in increasing order under the lock and popped
 * from the head, so across all instances indexes come out increasing. An index not above what was
 * popped before (this instance's highest, or the shared watermark every instance writes its highest
 * to) means the list went back in time: a replica promoted while it lagged, or an old snapshot.
 * Such a list is deleted, never served; the next refill brings new indexes from the store.
 */
final class ShardListGuard {

    private static final Logger LOG = LoggerFactory.getLogger(ShardListGuard.class);

    private final RedisShardLists lists;
    private final IssuedWatermarks watermarks;

    ShardListGuard(RedisShardLists lists, IssuedWatermarks watermarks) {
        this.lists = lists;
        this.watermarks = watermarks;
    }

    /** Syncs when the interval passed, or Redis came back (epoch), since this shard's last sync. */
    void syncIfDue(ShardListState state, long now, long intervalMillis, long epoch) {
        if (state.claimSync(now, intervalMillis, epoch)) {
            sync(state);
        }
    }

    /** Writes this instance's highest popped index, then reads the highest any instance wrote. */
    void sync(ShardListState state) {
        try {
            write(state);
            state.learnWatermark(watermarks.highest(state.appId, state.shardId));
        } catch (RuntimeException storeFailed) {
            // Whatever the implementation throws: issuing stays correct (the store hands out every index
            // once); only the guard runs on an older watermark until the next sync, which is worth a WARN.
            LOG.warn("Could not sync the issued watermark of app {} shard {} ({}); the lagging-replica guard uses "
                    + "the watermark read before until the next sync", state.appId, state.shardId,
                    storeFailed.toString());
        }
    }

    /** Redis just failed (perhaps a failover): write every shard's highest popped so the others learn it. */
    void writeAll(Collection<ShardListState> states) {
        for (ShardListState state : states) {
            try {
                write(state);
            } catch (RuntimeException storeFailed) {
                LOG.warn("Could not write the issued watermark of app {} shard {} ({})", state.appId, state.shardId,
                        storeFailed.toString());
            }
        }
    }

    private void write(ShardListState state) {
        long popped = state.highestPopped();
        if (state.claimWrite(popped)) {
            watermarks.advance(state.appId, state.shardId, popped);
        }
    }

    /**
     * The popped values as indexes, or null when they must not be served: the Redis answering is
     * another process than the one the list was popped from (a failover, a restart from a snapshot),
     * or the list went back in time or holds something
     * that is not an index: then it has been deleted and the popped values are dropped.
     */
    long[] check(ShardListState state, RedisShardLists.Popped pop, long floor) {
        if (pop.refusal() == RedisShardLists.Refusal.OTHER_PROCESS) {
            discard(state, "is now served by another Redis process than the one Leaf popped it from (the guard "
                    + "hash beside it came by replication, without the mark only the popping process writes): a "
                    + "failover to a replica, which may have lost pops. Nothing was popped, and every instance's "
                    + "first pop on this process finds the same", true);
            return null;
        }
        if (pop.refusal() == RedisShardLists.Refusal.PUT_BACK) {
            discard(state, "handed out an index at or below the highest index popped from it (kept beside the "
                    + "list): the list went back in time, put back from an older copy. What was popped is not served, "
                    + "and every instance's next pop finds the same", true);
            return null;
        }
        List<String> popped = pop.values();
        long[] indexes = new long[popped.size()];
        long previous = floor;
        for (int i = 0; i < indexes.length; i++) {
            String value = popped.get(i);
            long index;
            try {
                index = Long.parseLong(value);
            } catch (NumberFormatException notAnIndex) {
                discard(state, "handed out \"" + value + "\", which is not a decimal index; check what else writes "
                        + "to this key", false);
                return null;
            }
            if (index <= previous) {
                discard(state, "handed out index " + index + " after index " + previous + " had already been "
                        + "issued: the list went back in time, most likely a Redis failover to a replica that "
                        + "lagged behind, or a restore of an old snapshot. Check the Redis replication (how far "
                        + "the promoted replica was behind) and that no other service pushes to this list out of "
                        + "order", false);
                return null;
            }
            indexes[i] = index;
            previous = index;
        }
        return indexes;
    }

    private void discard(ShardListState state, String what, boolean everyInstanceSeesIt) {
        LOG.error("Redis list {} (app {} shard {}) {}. The list was deleted and the shard is refilled from "
                + "id_alloc with new indexes, so this instance issues none of them again{}", state.listKey,
                state.appId, state.shardId, what, everyInstanceSeesIt ? "" : "; another instance that popped from the"
                        + " old list before its next watermark sync is not covered (see docs/shard-mode.md)");
        lists.deleteList(state.listKey);
        sync(state);
    }
}
