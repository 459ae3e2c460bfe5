package org.leafid.client;

import java.util.Arrays;

/**
 * The IDs of one answer, in the order given: one run of consecutive numbers (a segment batch as
 * ranges, nearly always), held as its first ID and its size whatever its size, or any IDs as an
 * array (one per line, several runs, runs with a stride). The checks and the buffer read both alike;
 * a run is never written out as an array on its way to the caller.
 */
final class AnswerIds {

    /** The IDs, or null for a run. */
    private final long[] ids;
    /** A run's first ID; unused for an array. */
    private final long first;
    private final int count;

    private AnswerIds(long[] ids, long first, int count) {
        this.ids = ids;
        this.first = first;
        this.count = count;
    }

    /** The IDs as given, kept, not copied. */
    static AnswerIds of(long[] ids) {
        return new AnswerIds(ids, 0, ids.length);
    }

    /** {@code count} consecutive IDs from {@code first}; the last must not pass 2^63-1. */
    static AnswerIds run(long first, int count) {
        if (count < 1 || first > Long.MAX_VALUE - (count - 1)) {
            throw new IllegalArgumentException("a run of " + count + " IDs from " + first);
        }
        return new AnswerIds(null, first, count);
    }

    int count() {
        return count;
    }

    /** Whether the IDs are one run, each one above the one before. */
    boolean isRun() {
        return ids == null;
    }

    /** The ID at {@code index}, 0 to count-1. */
    long get(int index) {
        return ids == null ? first + index : ids[index];
    }

    /** The first ID; the answer must not be empty. */
    long first() {
        return get(0);
    }

    /** The last ID; the answer must not be empty. */
    long last() {
        return get(count - 1);
    }

    /** The array the IDs are held in, or null for a run: for the buffer's own reads, never written to. */
    long[] arrayOrNull() {
        return ids;
    }

    /** The IDs as an array: the one held (not a copy), or a run written out. */
    long[] toArray() {
        if (ids != null) {
            return ids;
        }
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            out[i] = first + i;
        }
        return out;
    }

    /** In IDs sorted increasing: the index of the first one above {@code floor}, count when none is. */
    int firstAbove(long floor) {
        if (count == 0 || last() <= floor) {
            return count;
        }
        if (ids == null) {
            return floor < first ? 0 : (int) (floor - first + 1);
        }
        int at = Arrays.binarySearch(ids, floor + 1);
        return at >= 0 ? at : -at - 1;
    }

    @Override
    public String toString() {
        return count == 0 ? "no IDs" : count + " IDs, " + first() + " to " + last();
    }
}
