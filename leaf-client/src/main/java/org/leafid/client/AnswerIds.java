package org.leafid.client;

import java.util.Arrays;

/**
 * The IDs of one answer, in the order given: runs of consecutive numbers, each above the one before
 * (a segment batch as ranges), held as each run's first ID and where it ends whatever their size; or
 * any IDs as an array (one per line, runs with a stride, runs in no order). The checks and the buffer
 * read both alike; runs are never written out as an array on their way to the caller.
 */
final class AnswerIds {

    /** The IDs, or null for runs. */
    private final long[] ids;
    /** Runs: each run's first ID; null for an array. */
    private final long[] firsts;
    /** Runs: the index after each run's last ID, so the last is the count; null for an array. */
    private final int[] ends;
    private final int count;

    private AnswerIds(long[] ids, long[] firsts, int[] ends, int count) {
        this.ids = ids;
        this.firsts = firsts;
        this.ends = ends;
        this.count = count;
    }

    /** The IDs as given, kept, not copied. */
    static AnswerIds of(long[] ids) {
        return new AnswerIds(ids, null, null, ids.length);
    }

    /** {@code count} consecutive IDs from {@code first}; the last must not pass 2^63-1. */
    static AnswerIds run(long first, int count) {
        return runs(new long[] {first, first + (count - 1L)}, 1);
    }

    /**
     * The runs {@code bounds[2i]..bounds[2i+1]} for i below {@code runs}, each starting above the run
     * before it ends; together at most 2^31-1 IDs.
     */
    static AnswerIds runs(long[] bounds, int runs) {
        if (runs < 1) {
            throw new IllegalArgumentException("no run");
        }
        long[] firsts = new long[runs];
        int[] ends = new int[runs];
        long total = 0;
        for (int r = 0; r < runs; r++) {
            long first = bounds[2 * r];
            long last = bounds[2 * r + 1];
            if (last < first || (r > 0 && first <= bounds[2 * r - 1])) {
                throw new IllegalArgumentException("run " + (r + 1) + " from " + first + " to " + last
                        + " is not above the run before it, or ends before it starts");
            }
            total += last - first + 1; // a span past 2^63 wraps below 0, which the check refuses too
            if (total > Integer.MAX_VALUE || total <= 0) {
                throw new IllegalArgumentException("runs of more than " + Integer.MAX_VALUE + " IDs");
            }
            firsts[r] = first;
            ends[r] = (int) total;
        }
        return new AnswerIds(null, firsts, ends, (int) total);
    }

    int count() {
        return count;
    }

    /** Whether the IDs are one run, each one above the one before. */
    boolean isRun() {
        return ids == null && firsts.length == 1;
    }

    /** Whether the IDs are runs, so each one is above the one before. */
    boolean isRuns() {
        return ids == null;
    }

    /** The ID at {@code index}, 0 to count-1. */
    long get(int index) {
        if (ids != null) {
            return ids[index];
        }
        if (firsts.length == 1) {
            return firsts[0] + index;
        }
        int run = runOf(index);
        return firsts[run] + (index - startOf(run));
    }

    /** The first ID; the answer must not be empty. */
    long first() {
        return get(0);
    }

    /** The last ID; the answer must not be empty. */
    long last() {
        return get(count - 1);
    }

    /** The array the IDs are held in, or null for runs: for the buffer's own reads, never written to. */
    long[] arrayOrNull() {
        return ids;
    }

    /** Copies {@code n} IDs from index {@code from} on into {@code out} at {@code at}. */
    void copyTo(int from, long[] out, int at, int n) {
        if (ids != null) {
            System.arraycopy(ids, from, out, at, n);
            return;
        }
        int run = runOf(from);
        for (int k = 0; k < n; k++) {
            int index = from + k;
            while (index >= ends[run]) {
                run++;
            }
            out[at + k] = firsts[run] + (index - startOf(run));
        }
    }

    /** The IDs as an array: the one held (not a copy), or the runs written out. */
    long[] toArray() {
        if (ids != null) {
            return ids;
        }
        long[] out = new long[count];
        copyTo(0, out, 0, count);
        return out;
    }

    /** In IDs sorted increasing: the index of the first one above {@code floor}, count when none is. */
    int firstAbove(long floor) {
        if (count == 0 || last() <= floor) {
            return count;
        }
        if (ids != null) {
            int at = Arrays.binarySearch(ids, floor + 1);
            return at >= 0 ? at : -at - 1;
        }
        int run = 0;
        while (firsts[run] + (ends[run] - startOf(run) - 1) <= floor) {
            run++; // this run ends at or below the floor; the last one does not
        }
        return floor < firsts[run] ? startOf(run) : startOf(run) + (int) (floor - firsts[run] + 1);
    }

    /** The run holding {@code index}. */
    private int runOf(int index) {
        if (firsts.length == 1) {
            return 0;
        }
        int at = Arrays.binarySearch(ends, index);
        return at >= 0 ? at + 1 : -at - 1; // an index equal to a run's end is the next run's first
    }

    private int startOf(int run) {
        return run == 0 ? 0 : ends[run - 1];
    }

    @Override
    public String toString() {
        return count == 0 ? "no IDs" : count + " IDs, " + first() + " to " + last();
    }
}
