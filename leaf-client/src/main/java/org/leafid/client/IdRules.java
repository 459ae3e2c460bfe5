package org.leafid.client;

import java.util.Arrays;

/** The rules every mode's check is made of, each failing with its own check name. */
final class IdRules {

    private IdRules() {}

    /** Every ID above 0: the servers issue none at or below it. */
    static void positive(AnswerIds ids) throws BadAnswerException {
        int bad = 0;
        for (int i = 0; i < ids.count(); i++) {
            if (ids.get(i) <= 0) {
                bad++;
            }
        }
        if (bad > 0) {
            throw new BadAnswerException("positive", bad + " of " + ids.count() + " IDs are 0 or below");
        }
    }

    /** Each ID above the one before it, as one server issues segment and snowflake IDs. */
    static void increasing(AnswerIds answer) throws BadAnswerException {
        long[] ids = answer.arrayOrNull();
        if (ids == null) {
            return; // runs, each above the one before
        }
        for (int i = 1; i < ids.length; i++) {
            if (ids[i] <= ids[i - 1]) {
                throw new BadAnswerException("increasing", "ID " + ids[i] + " at line " + (i + 1)
                        + " is not above " + ids[i - 1]);
            }
        }
    }

    /** The IDs sorted, refused when one repeats. */
    static AnswerIds sortedDistinct(AnswerIds ids) throws BadAnswerException {
        if (ids.isRuns()) {
            return ids;
        }
        long[] sorted = ids.toArray().clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                throw new BadAnswerException("repeated", "ID " + sorted[i] + " is in the answer more than once");
            }
        }
        return AnswerIds.of(sorted);
    }

    /**
     * The last ID above {@code floor}, the largest the client served: an answer wholly at or below
     * it repeats or goes back (the IDs of one only starting below it are not served).
     */
    static void reachesAbove(AnswerIds ids, long floor, String what) throws BadAnswerException {
        if (ids.count() > 0 && ids.last() <= floor) {
            throw new BadAnswerException("behind", "every ID is at or below " + floor + ", " + what);
        }
    }
}
