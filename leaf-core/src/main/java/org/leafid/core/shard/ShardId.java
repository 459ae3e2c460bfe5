package org.leafid.core.shard;

/**
 * A shard-mode ID and its parts: {@code id = index << 14 | shardId << 8 | appId}. The layout is
 * the Redis-queue ID services', so IDs they issued decode here and the other way round.
 *
 * @param index at least 1 and below 2^49, so that every ID is positive
 */
public record ShardId(long id, int appId, int shardId, long index) {

    public static final int APP_BITS = 8;
    public static final int SHARD_BITS = 6;
    public static final int SHARD_SHIFT = APP_BITS;
    public static final int INDEX_SHIFT = APP_BITS + SHARD_BITS;
    public static final int SHARDS = 1 << SHARD_BITS;
    public static final int MAX_APP_ID = (1 << APP_BITS) - 1;
    /** The largest index that keeps the ID positive: 2^49 - 1. */
    public static final long MAX_INDEX = (1L << (Long.SIZE - 1 - INDEX_SHIFT)) - 1;
    /** Longer gate passes are refused: they are user names, phones and e-mails, not documents. */
    public static final int MAX_GATE_PASS_LENGTH = 256;

    public ShardId {
        checkParts(appId, shardId, index);
        if (id != compose(appId, shardId, index)) {
            throw new IllegalArgumentException("id " + id + " is not app " + appId + " shard " + shardId + " index "
                    + index);
        }
    }

    /** The parts as an ID; allocates nothing, for the hot path. */
    public static long compose(int appId, int shardId, long index) {
        checkParts(appId, shardId, index);
        return index << INDEX_SHIFT | (long) shardId << SHARD_SHIFT | appId;
    }

    /** The parts of an ID. */
    public static ShardId decode(long id) {
        if (id <= 0) {
            throw new IllegalArgumentException("a shard-mode ID is positive: " + id);
        }
        long index = id >>> INDEX_SHIFT;
        if (index < 1) {
            throw new IllegalArgumentException("id " + id + " has index 0: shard-mode IDs start at index 1");
        }
        return new ShardId(id, (int) (id & MAX_APP_ID), (int) (id >>> SHARD_SHIFT) & (SHARDS - 1), index);
    }

    /**
     * The shard of a gate pass exactly as the Redis-queue services compute it:
     * {@code Math.abs(gatePass.hashCode()) % 64}. {@code Math.abs(Integer.MIN_VALUE)} stays
     * negative, and that value {@code % 64} is 0, so no result is negative; it must be this
     * formula and no "fixed" one, or users would move to another database shard.
     *
     * @throws IllegalArgumentException when the gate pass is longer than {@value #MAX_GATE_PASS_LENGTH} characters
     */
    public static int shardOf(String gatePass) {
        if (gatePass.length() > MAX_GATE_PASS_LENGTH) {
            throw new IllegalArgumentException("gatePass has " + gatePass.length() + " characters; at most "
                    + MAX_GATE_PASS_LENGTH + " are accepted (a user name, phone or e-mail)");
        }
        return Math.abs(gatePass.hashCode()) % SHARDS;
    }

    private static void checkParts(int appId, int shardId, long index) {
        if (appId < 0 || appId > MAX_APP_ID) {
            throw new IllegalArgumentException("app id must be 0.." + MAX_APP_ID + ": " + appId);
        }
        if (shardId < 0 || shardId >= SHARDS) {
            throw new IllegalArgumentException("shard id must be 0.." + (SHARDS - 1) + ": " + shardId);
        }
        if (index < 1 || index > MAX_INDEX) {
            throw new IllegalArgumentException("index must be 1.." + MAX_INDEX + ": " + index);
        }
    }
}
