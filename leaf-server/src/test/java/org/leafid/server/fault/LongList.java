package org.leafid.server.fault;

import java.util.Arrays;

/** A growable list of primitive longs: millions of IDs without boxing. Not thread-safe. */
final class LongList {

    private long[] values = new long[1024];
    private int size;

    void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    void addAll(long[] more) {
        for (long value : more) {
            add(value);
        }
    }

    int size() {
        return size;
    }

    long get(int index) {
        return values[index];
    }

    long[] toArray() {
        return Arrays.copyOf(values, size);
    }

    /** All values of several lists in one new array. */
    static long[] concat(Iterable<LongList> lists) {
        int total = 0;
        for (LongList list : lists) {
            total += list.size;
        }
        long[] all = new long[total];
        int at = 0;
        for (LongList list : lists) {
            System.arraycopy(list.values, 0, all, at, list.size);
            at += list.size;
        }
        return all;
    }
}
