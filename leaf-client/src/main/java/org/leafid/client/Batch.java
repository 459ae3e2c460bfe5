package org.leafid.client;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One fetched batch: its IDs and a cursor that threads advance to claim indexes, a compare-and-set
 * each, never past the end (the cursor at the end means the batch is spent).
 * The cursor may start past 0 (IDs before it are not served). {@code prefetchAt} is the index whose
 * claimer starts fetching the next batch. A run of consecutive IDs is served as its first ID plus
 * the index, with no array behind it.
 */
final class Batch {

    /**
     * Which of its buffer's current batches this is, counted from 1 as they become current (0 for the
     * empty one a buffer starts with, the largest long for a closed buffer's): a thread's claim is served
     * while it came from the current batch or the one before.
     */
    final long serial;
    /** The answer's IDs: an array, or runs read by index. */
    private final AnswerIds ids;
    /** The first ID of an answer that is one run, the usual answer to a request for ranges; else unused. */
    private final long runFirst;
    private final boolean oneRun;
    final int length;
    final int prefetchAt;
    final AtomicInteger cursor;
    /**
     * The most IDs a thread claims at a time from this batch: at most 1/1024 of what it serves, so that
     * what threads hold is a small part of a large batch, and nothing of a small one.
     */
    final int mostPerClaim;

    Batch(long serial, AnswerIds answer, int start, double prefetchThreshold) {
        this.serial = serial;
        this.ids = answer;
        this.oneRun = answer.isRun();
        this.runFirst = oneRun ? answer.first() : 0;
        this.length = answer.count();
        this.cursor = new AtomicInteger(start);
        int left = length - start;
        this.mostPerClaim = Math.max(1, Math.min(PrefetchBuffer.MOST_PER_CLAIM, left / 1024));
        this.prefetchAt = left <= 0 ? -1 : start + Math.min(left - 1, (int) (left * prefetchThreshold));
    }

    static Batch empty() {
        return new Batch(0, AnswerIds.of(new long[0]), 0, 0);
    }

    /** The batch of a closed buffer: no claim made before is served any longer. */
    static Batch closed() {
        return new Batch(Long.MAX_VALUE, AnswerIds.of(new long[0]), 0, 0);
    }

    /**
     * Hands {@code count} IDs from index {@code from} on to a thread's claim: consecutive IDs of runs as
     * their first ID, others copied (a claim never holds a batch's array, which would keep it alive).
     */
    void claimInto(PrefetchBuffer.Claim claim, int from, int count) {
        if (oneRun) {
            claim.ids = null;
            claim.first = runFirst + from;
        } else {
            claimIntoOthers(claim, from, count); // its own method, so that the one-run case stays small to inline
        }
        claim.next = 0;
        claim.end = count;
    }

    private void claimIntoOthers(PrefetchBuffer.Claim claim, int from, int count) {
        long first = ids.get(from);
        // Runs increase, so count IDs from first that end at first + count - 1 are consecutive.
        if (ids.isRuns() && ids.get(from + count - 1) - first == count - 1) {
            claim.ids = null;
            claim.first = first;
        } else {
            ids.copyTo(from, claim.copied, 0, count);
            claim.ids = claim.copied;
        }
    }

    /** Copies the IDs from index {@code from} on into {@code out} at {@code at}. */
    void copy(int from, long[] out, int at, int count) {
        ids.copyTo(from, out, at, count);
    }

    int remaining() {
        return Math.max(0, length - cursor.get());
    }
}
