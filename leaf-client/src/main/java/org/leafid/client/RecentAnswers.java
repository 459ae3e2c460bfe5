package org.leafid.client;

import java.util.ArrayDeque;

/**
 * The answers one buffer accepted last, each sorted, so that an answer sharing an ID with one of
 * them is refused ({@code repeated}): a server repeating an earlier answer, two answers in flight
 * at once that overlap each other (neither can be judged by the other when its request leaves),
 * another server replaying a range. The judgement and the recording are one step under one lock,
 * so of two overlapping answers judged at once only the first is accepted.
 *
 * <p>Bounded: the last {@value #LEAST_ANSWERS} answers are always kept (a buffer has at most two
 * requests in flight, so they cover the answers accepted while one was on its way), then older
 * ones while the IDs kept stay within {@code mostIds}. Called once per answer, never per ID.
 */
final class RecentAnswers {

    static final int LEAST_ANSWERS = 4;

    private final int mostIds;
    /** Oldest first; guarded by this. */
    private final ArrayDeque<AnswerIds> answers = new ArrayDeque<>();
    private long held;

    /** @param mostIds how many IDs to keep beyond the last {@value #LEAST_ANSWERS} answers, 0 for none */
    RecentAnswers(int mostIds) {
        this.mostIds = mostIds;
    }

    /**
     * Records an answer that shares no ID with the ones kept.
     *
     * @param sorted the answer's IDs, increasing; kept as given, not copied
     * @throws BadAnswerException {@code repeated}, naming the first ID shared
     */
    synchronized void admit(AnswerIds sorted) throws BadAnswerException {
        if (sorted.count() == 0) {
            return;
        }
        for (AnswerIds earlier : answers) {
            int shared = firstShared(sorted, earlier);
            if (shared >= 0) {
                throw new BadAnswerException("repeated", "ID " + sorted.get(shared) + " was in an answer accepted "
                        + "before (" + earlier + ")");
            }
        }
        answers.addLast(sorted);
        held += sorted.count();
        while (answers.size() > LEAST_ANSWERS && held - sizeOfLast(LEAST_ANSWERS) > mostIds) {
            held -= answers.removeFirst().count();
        }
    }

    /** The IDs in the newest {@code count} answers kept. */
    private long sizeOfLast(int count) {
        long size = 0;
        int seen = 0;
        for (var it = answers.descendingIterator(); it.hasNext() && seen < count; seen++) {
            size += it.next().count();
        }
        return size;
    }

    /** The index in {@code a} of the first ID also in {@code b}, or -1; both sorted. */
    static int firstShared(AnswerIds a, AnswerIds b) {
        if (a.count() == 0 || b.count() == 0 || a.last() < b.first() || b.last() < a.first()) {
            return -1; // the usual case for ordered IDs: apart
        }
        if (a.isRun() && b.isRun()) {
            return (int) (Math.max(a.first(), b.first()) - a.first()); // two runs that overlap
        }
        int i = 0;
        int j = 0;
        while (i < a.count() && j < b.count()) {
            long x = a.get(i);
            long y = b.get(j);
            if (x == y) {
                return i;
            }
            if (x < y) {
                i++;
            } else {
                j++;
            }
        }
        return -1;
    }
}
