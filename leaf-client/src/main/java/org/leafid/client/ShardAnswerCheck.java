package org.leafid.client;

import java.util.Arrays;

/**
 * A shard-mode answer ({@code index << 14 | shardId << 8 | appId}): IDs above 0, each of the app
 * asked for and, when a gate pass chose the shard, of that shard; no ID twice in the answer, and
 * none of the previous answer accepted (opaque IDs have no order to check, so a server repeating
 * its answer is caught this way).
 */
final class ShardAnswerCheck implements AnswerCheck {

    private static final int APP_MASK = 0xFF;
    private static final int SHARD_SHIFT = 8;

    private final int appId;
    /** The shard a gate pass chose, or -1 when the server picks. */
    private final int shard;
    /** The previous accepted answer, sorted. */
    private volatile long[] previous = new long[0];

    ShardAnswerCheck(int appId, int shard) {
        this.appId = appId;
        this.shard = shard;
    }

    @Override
    public Judge before(String server) {
        return ids -> {
            IdRules.positive(ids);
            for (long id : ids) {
                if ((id & APP_MASK) != appId) {
                    throw new BadAnswerException("app", "ID " + id + " is of app " + (id & APP_MASK) + ", not "
                            + appId);
                }
                if (shard >= 0 && (id >>> SHARD_SHIFT) % ShardIds.SHARDS != shard) {
                    throw new BadAnswerException("shard", "ID " + id + " is in shard "
                            + (id >>> SHARD_SHIFT) % ShardIds.SHARDS + ", not the gate pass's " + shard);
                }
            }
            long[] sorted = IdRules.sortedDistinct(ids);
            long[] before = previous;
            for (long id : ids) {
                if (Arrays.binarySearch(before, id) >= 0) {
                    throw new BadAnswerException("repeated", "ID " + id + " was in the previous answer");
                }
            }
            previous = sorted;
        };
    }
}
