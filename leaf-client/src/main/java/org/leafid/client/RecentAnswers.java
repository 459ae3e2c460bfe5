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
    private final ArrayDeque<long[]> answers = new ArrayDeque<>();
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
    synchronized void admit(long[] sorted) throws BadAnswerException {
        if (sorted.length == 0) {
            return;
        }
        for (long[] earlier : answers) {
            int shared = firstShared(sorted, earlier);
            if (shared >= 0) {
                throw new BadAnswerException("repeated", "ID " + sorted[shared] + " was in an answer accepted "
                        + "before (" + earlier.length + " IDs, " + earlier[0] + " to " + earlier[earlier.length - 1]
                        + ")");
            }
        }
        answers.addLast(sorted);
        held += sorted.length;
        while (answers.size() > LEAST_ANSWERS && held - sizeOfLast(LEAST_ANSWERS) > mostIds) {
            held -= answers.removeFirst().length;
        }
    }

    /** The IDs in the newest {@code count} answers kept. */
    private long sizeOfLast(int count) {
        long size = 0;
        int seen = 0;
        for (var it = answers.descendingIterator(); it.hasNext() && seen < count; seen++) {
            size += it.next().length;
        }
        return size;
    }

    /** The index in {@code a} of the first ID also in {@code b}, or -1; both sorted. */
    static int firstShared(long[] a, long[] b) {
        if (a.length == 0 || b.length == 0 || a[a.length - 1] < b[0] || b[b.length - 1] < a[0]) {
            return -1; // the usual case for ordered IDs: apart
        }
        int i = 0;
        int j = 0;
        while (i < a.length && j < b.length) {
            if (a[i] == b[j]) {
                return i;
            }
            if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
        return -1;
    }
}
