package org.leafid.core.segment;

import java.util.Arrays;

/**
 * IDs issued together, as runs of consecutive numbers: {@code [first, last]} pairs in the order they
 * were issued (runs that touch are one run, except as read by {@link #ofRuns}). A segment batch is
 * one run, or two when it crosses into a block that does not follow the last, so a batch of any size
 * is a few numbers to write and to send instead of one per ID.
 */
public final class IdRanges {

    private final long[] bounds;
    private final int ranges;
    private final int count;
    private final long stride;

    private IdRanges(long[] bounds, int ranges, int count, long stride) {
        this.bounds = bounds;
        this.ranges = ranges;
        this.count = count;
        this.stride = stride;
    }

    /**
     * The IDs as runs that step by {@code stride}: {@code first, first + stride, ..., last}. Shard-mode
     * IDs of consecutive indexes of one shard step by {@code 1 << 14}, the bits below the index.
     */
    public static IdRanges of(long[] ids, long stride) {
        if (stride < 1) {
            throw new IllegalArgumentException("stride must be at least 1: " + stride);
        }
        long[] bounds = new long[4];
        int ranges = 0;
        for (int i = 0; i < ids.length; ) {
            int end = i;
            while (end + 1 < ids.length && ids[end] <= Long.MAX_VALUE - stride && ids[end + 1] == ids[end] + stride) {
                end++;
            }
            if (2 * ranges == bounds.length) {
                bounds = Arrays.copyOf(bounds, bounds.length * 2);
            }
            bounds[2 * ranges] = ids[i];
            bounds[2 * ranges + 1] = ids[end];
            ranges++;
            i = end + 1;
        }
        return new IdRanges(bounds, ranges, ids.length, stride);
    }

    /**
     * The runs {@code [bounds[2i], bounds[2i+1]]} for i below {@code ranges}, each stepping by
     * {@code stride}, as an answer read them (kept as given: runs that touch are not joined), for one
     * that holds them to write its IDs out.
     *
     * @throws IllegalArgumentException when a run starts below 0, ends before it starts, is not whole
     *     steps, or the runs hold more than 2^31-1 IDs
     */
    public static IdRanges ofRuns(long[] bounds, int ranges, long stride) {
        if (stride < 1) {
            throw new IllegalArgumentException("stride must be at least 1: " + stride);
        }
        long count = 0;
        for (int i = 0; i < ranges; i++) {
            long first = bounds[2 * i];
            long last = bounds[2 * i + 1];
            if (first < 0 || last < first || (last - first) % stride != 0) {
                throw new IllegalArgumentException("run " + i + " from " + first + " to " + last
                        + " is not whole steps of " + stride);
            }
            count += (last - first) / stride + 1;
            if (count > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("the runs hold more than 2^31-1 IDs");
            }
        }
        return new IdRanges(Arrays.copyOf(bounds, 2 * ranges), ranges, (int) count, stride);
    }

    /** What the IDs of a run step by: 1 for consecutive numbers. */
    public long stride() {
        return stride;
    }

    /** How many runs. */
    public int ranges() {
        return ranges;
    }

    /** How many IDs in all. */
    public int count() {
        return count;
    }

    /** The first ID of run {@code i} (0-based). */
    public long first(int i) {
        return bounds[2 * checked(i)];
    }

    /** The last ID of run {@code i} (0-based), inclusive. */
    public long last(int i) {
        return bounds[2 * checked(i) + 1];
    }

    /** Every ID, in order. */
    public long[] toArray() {
        long[] ids = new long[count];
        int at = 0;
        for (int i = 0; i < ranges; i++) {
            long first = bounds[2 * i];
            int size = (int) ((bounds[2 * i + 1] - first) / stride + 1);
            for (int k = 0; k < size; k++) {
                ids[at + k] = first + k * stride;
            }
            at += size;
        }
        return ids;
    }

    private int checked(int i) {
        if (i < 0 || i >= ranges) {
            throw new IndexOutOfBoundsException("run " + i + " of " + ranges);
        }
        return i;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder().append(count).append(" IDs, stride ").append(stride).append(", in ");
        for (int i = 0; i < ranges; i++) {
            text.append(i == 0 ? "[" : ", [").append(bounds[2 * i]).append(", ").append(bounds[2 * i + 1]).append(']');
        }
        return text.toString();
    }

    /** Collects the runs of one batch in the order they were issued. */
    static final class Builder {

        private long[] bounds = new long[4];
        private int ranges;
        private int count;

        /**
         * Adds {@code size} consecutive IDs from {@code first}, joined to the run before when they
         * follow it directly (the end of one block and the start of the next).
         */
        void add(long first, int size) {
            if (size < 1) {
                throw new IllegalArgumentException("a run of " + size + " IDs");
            }
            long last = first + size - 1;
            if (ranges > 0 && bounds[2 * ranges - 1] == first - 1) {
                bounds[2 * ranges - 1] = last;
            } else {
                if (2 * ranges == bounds.length) {
                    bounds = Arrays.copyOf(bounds, bounds.length * 2);
                }
                bounds[2 * ranges] = first;
                bounds[2 * ranges + 1] = last;
                ranges++;
            }
            count += size;
        }

        IdRanges build() {
            return new IdRanges(bounds, ranges, count, 1);
        }
    }
}
