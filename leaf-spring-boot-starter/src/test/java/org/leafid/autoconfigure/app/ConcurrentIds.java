package org.leafid.autoconfigure.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/** Takes IDs from many threads at once and checks what came back. */
public final class ConcurrentIds {

    private ConcurrentIds() {}

    /** {@code perThread} IDs from each of {@code threads} threads started together; one array per thread, in order. */
    public static long[][] take(int threads, int perThread, LongSupplier next) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(() -> {
                    go.await();
                    long[] ids = new long[perThread];
                    for (int i = 0; i < perThread; i++) {
                        ids[i] = next.getAsLong();
                    }
                    return ids;
                }));
            }
            go.countDown();
            long[][] all = new long[threads][];
            for (int t = 0; t < threads; t++) {
                all[t] = results.get(t).get(60, TimeUnit.SECONDS);
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Every ID of every thread, sorted; fails naming the first ID that appears twice. */
    public static long[] assertNoDuplicate(long[]... perThread) {
        long[] all = Arrays.stream(perThread).flatMapToLong(Arrays::stream).sorted().toArray();
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                throw new AssertionError("ID " + all[i] + " was issued twice (among " + all.length + ")");
            }
        }
        return all;
    }

    /** Each thread saw its IDs strictly increase. */
    public static void assertIncreasingPerThread(long[][] perThread) {
        for (int t = 0; t < perThread.length; t++) {
            for (int i = 1; i < perThread[t].length; i++) {
                assertThat(perThread[t][i]).as("thread %d, ID %d after %d", t, i, perThread[t][i - 1])
                        .isGreaterThan(perThread[t][i - 1]);
            }
        }
    }
}
