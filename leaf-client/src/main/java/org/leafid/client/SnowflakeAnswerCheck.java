package org.leafid.client;

import java.util.function.LongSupplier;

/**
 * A snowflake answer: IDs above 0, strictly increasing, reaching above the largest snowflake ID
 * this client has served, whichever server gave it, and sharing no ID with the answers accepted
 * last ({@link RecentAnswers}). One floor for all servers, not one per server: a server that
 * replays another's range (the same worker id given twice, a stale cache) is below it, and the
 * client cannot tell servers apart by their IDs (the worker field's place depends on the servers'
 * layout). IDs of two servers interleave, so an answer that only starts below the mark is
 * accepted and served from above it, as a segment tag's; one wholly at or below it is refused
 * ({@code behind}): after a failover to a server whose clock is behind, until its clock passes the
 * mark.
 */
final class SnowflakeAnswerCheck implements AnswerCheck {

    private final LongSupplier served;
    /** Ordered answers need no more than the last few: anything older is below the mark and never served. */
    private final RecentAnswers recent = new RecentAnswers(0);

    /** @param served the largest snowflake ID handed out so far (or about to be), 0 for none */
    SnowflakeAnswerCheck(LongSupplier served) {
        this.served = served;
    }

    @Override
    public Judge before(String server) {
        long floor = served.getAsLong();
        return ids -> {
            IdRules.positive(ids);
            IdRules.increasing(ids);
            IdRules.reachesAbove(ids, floor, "the largest snowflake ID this client has served (from any server)");
            recent.admit(ids);
        };
    }
}
