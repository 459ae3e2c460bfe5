package org.leafid.client;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One fetched batch: its IDs and a cursor that threads advance to claim indexes (a compare-and-set
 * each, or one atomic add for a batch of IDs); an index at or past the end means the batch is spent.
 * The cursor may start past 0 (IDs before it are not served). {@code prefetchAt} is the index whose
 * claimer starts fetching the next batch. A run of consecutive IDs is served as its first ID plus
 * the index, with no array behind it.
 */
final class Batch {

    /**
     * Which of its buffer's batches this is, counted from 1 (0 for an empty one): what a thread's claim
     * names its batch by, so that a claim never keeps a spent batch, and its array, from being collected.
     */
    final long serial;
    final AnswerIds answer;
    /** The answer's array, or null for a run: read on every ID, so kept here, one load away. */
    private final long[] ids;
    /** A run's first ID. */
    private final long first;
    final int length;
    final int prefetchAt;
    final AtomicInteger cursor;
    /**
     * The most indexes a thread claims at a time from this batch: at most 1/1024 of it, so that what
     * threads hold when it stops being current is a small part of a large batch, and none of a small one.
     */
    final int mostPerClaim;

    Batch(long serial, AnswerIds answer, int start, double prefetchThreshold) {
        this.serial = serial;
        this.answer = answer;
        this.ids = answer.arrayOrNull();
        this.first = answer.count() == 0 ? 0 : answer.first();
        this.length = answer.count();
        this.cursor = new AtomicInteger(start);
        int left = length - start;
        this.mostPerClaim = Math.max(1, Math.min(PrefetchBuffer.MOST_PER_CLAIM, length / 1024));
        this.prefetchAt = left <= 0 ? -1 : start + Math.min(left - 1, (int) (left * prefetchThreshold));
    }

    static Batch empty() {
        return new Batch(0, AnswerIds.of(new long[0]), 0, 0);
    }

    /** The ID at {@code index}, 0 to length-1. */
    long id(int index) {
        return ids == null ? first + index : ids[index];
    }

    /** Copies the IDs from index {@code from} on into {@code out} at {@code at}. */
    void copy(int from, long[] out, int at, int count) {
        if (ids != null) {
            System.arraycopy(ids, from, out, at, count);
            return;
        }
        for (int k = 0; k < count; k++) {
            out[at + k] = first + from + k;
        }
    }

    int remaining() {
        return Math.max(0, length - cursor.get());
    }
}
