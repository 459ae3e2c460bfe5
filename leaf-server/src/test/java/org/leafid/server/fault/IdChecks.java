package org.leafid.server.fault;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Uniqueness and order checks on issued IDs: sort a copy and scan neighbours. */
final class IdChecks {

    private IdChecks() {}

    /** What a scan found: how many values repeat an earlier one, and a few of them. */
    record Duplicates(long checked, long count, List<Long> examples) {
        boolean none() {
            return count == 0;
        }
    }

    /** Counts the values that equal another one of the array (a value seen 3 times counts 2). */
    static Duplicates duplicates(long[] ids) {
        long[] sorted = ids.clone();
        Arrays.sort(sorted);
        long count = 0;
        List<Long> examples = new ArrayList<>();
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                count++;
                if (examples.size() < 10) {
                    examples.add(sorted[i]);
                }
            }
        }
        return new Duplicates(sorted.length, count, examples);
    }

    /** Index of the first value not greater than the one before it, or -1 when strictly increasing. */
    static int firstNotIncreasing(LongList ids) {
        for (int i = 1; i < ids.size(); i++) {
            if (ids.get(i) <= ids.get(i - 1)) {
                return i;
            }
        }
        return -1;
    }

    static long max(long[] ids) {
        return Arrays.stream(ids).max().orElse(Long.MIN_VALUE);
    }

    static long min(long[] ids) {
        return Arrays.stream(ids).min().orElse(Long.MAX_VALUE);
    }
}
