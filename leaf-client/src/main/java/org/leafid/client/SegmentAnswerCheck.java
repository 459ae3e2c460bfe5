package org.leafid.client;

import java.util.function.LongSupplier;

/**
 * A segment tag's answer: strictly increasing, reaching above the largest ID this client has
 * served of the tag (0 before the first: no ID at or below 0 is handed out), and sharing no ID
 * with the tag's answers accepted last ({@link RecentAnswers}). An answer wholly at or below the
 * mark (a server that repeats itself, or a {@code leaf_alloc} row set back) is a bad answer; one
 * that only starts below it is accepted, and the buffer serves it from above the mark only: a
 * healthy server of the fleet is on an older block after a failover, and a tag whose
 * {@code max_id} started at 0 issues 0 first, which is skipped, not held against the server.
 */
final class SegmentAnswerCheck implements AnswerCheck {

    private final LongSupplier served;
    /** Ordered answers need no more than the last few: anything older is below the mark and never served. */
    private final RecentAnswers recent = new RecentAnswers(0);

    /** @param served the largest ID of the tag handed out so far (or about to be), 0 for none */
    SegmentAnswerCheck(LongSupplier served) {
        this.served = served;
    }

    @Override
    public Judge before(String server) {
        long floor = served.getAsLong();
        return ids -> {
            IdRules.increasing(ids);
            if (ids.count() > 0 && ids.last() <= 0) {
                IdRules.positive(ids);
            }
            IdRules.reachesAbove(ids, floor, "which this client has served already (was the leaf_alloc row set back?)");
            recent.admit(ids);
        };
    }
}
