package org.leafid.client;

/**
 * A shard-mode answer ({@code index << 14 | shardId << 8 | appId}): IDs above 0, each of the app
 * asked for and, when a gate pass chose the shard, of that shard; no ID twice in the answer, and
 * none of an answer accepted before for the same buffer (the app's gate-pass shard, or its
 * round-robin buffer), as far back as {@link #RECENT_IDS} IDs and at least the last four answers.
 *
 * <p>Not by order: an opaque app's indexes are a keyed permutation, with no order to check, and
 * an answer does not say whether its app is opaque; a plain app's indexes increase per server
 * but interleave across servers. So a server repeating IDs older than that window is not caught
 * here: the servers' own guarantees cover it.
 */
final class ShardAnswerCheck implements AnswerCheck {

    /** The IDs kept per buffer beyond the last four answers: 128 KiB at most. */
    static final int RECENT_IDS = 16_384;
    private static final int APP_MASK = 0xFF;
    private static final int SHARD_SHIFT = 8;

    private final int appId;
    /** The shard a gate pass chose, or -1 when the server picks. */
    private final int shard;
    private final RecentAnswers recent = new RecentAnswers(RECENT_IDS);

    ShardAnswerCheck(int appId, int shard) {
        this.appId = appId;
        this.shard = shard;
    }

    @Override
    public Judge before(String server) {
        return ids -> {
            IdRules.positive(ids);
            for (long id : ids.toArray()) {
                if ((id & APP_MASK) != appId) {
                    throw new BadAnswerException("app", "ID " + id + " is of app " + (id & APP_MASK) + ", not "
                            + appId);
                }
                if (shard >= 0 && (id >>> SHARD_SHIFT) % ShardIds.SHARDS != shard) {
                    throw new BadAnswerException("shard", "ID " + id + " is in shard "
                            + (id >>> SHARD_SHIFT) % ShardIds.SHARDS + ", not the gate pass's " + shard);
                }
            }
            recent.admit(IdRules.sortedDistinct(ids));
        };
    }
}
