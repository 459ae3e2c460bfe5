package org.leafid.client;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The IDs of one path ({@code /api/segment/get/order}, …) served from a local batch fetched with
 * {@code ?count=N}. While a batch lasts, {@link #nextId()} takes no lock and makes no call: one
 * atomic increment. When a batch is half used, the next is fetched in the background; its size
 * adapts so that a busy source fetches about once per {@link #TARGET_FETCH_INTERVAL_NANOS}.
 *
 * <p>Never an ID twice: a batch is handed out through one cursor, a batch whose answer was cut or
 * unreadable is dropped whole, and a batch is never fetched again. With {@code increasing}
 * (segment mode) IDs not above the last batch's are dropped, so that IDs from one client keep
 * increasing even when a failover brings another server's lower block.
 */
final class PrefetchBuffer implements IdSource {

    static final long TARGET_FETCH_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long RETRY_PAUSE_MILLIS = 50;

    /** A fetched batch and the cursor every caller advances. */
    private static final class Batch {
        static final Batch EMPTY = new Batch(new long[0], 0);

        final long[] ids;
        final int prefetchAt;
        final long installedNanos = System.nanoTime();
        final AtomicInteger cursor = new AtomicInteger();

        Batch(long[] ids, int prefetchAt) {
            this.ids = ids;
            this.prefetchAt = prefetchAt;
        }
    }

    private final String path;
    private final ServerPool servers;
    private final Executor fetcher;
    private final int maxBatch;
    private final double prefetchThreshold;
    private final long maxWaitNanos;
    private final boolean increasing;
    private volatile Batch current = Batch.EMPTY;
    private final AtomicReference<CompletableFuture<long[]>> next = new AtomicReference<>();
    private volatile int batchSize;

    PrefetchBuffer(String path, ServerPool servers, Executor fetcher, int maxBatch, double prefetchThreshold,
            long maxWaitNanos, boolean increasing) {
        this.path = path;
        this.servers = servers;
        this.fetcher = fetcher;
        this.maxBatch = maxBatch;
        this.prefetchThreshold = prefetchThreshold;
        this.maxWaitNanos = maxWaitNanos;
        this.increasing = increasing;
        this.batchSize = Math.min(maxBatch, 100);
    }

    @Override
    public long nextId() {
        for (;;) {
            Batch batch = current;
            int i = batch.cursor.getAndIncrement();
            if (i < batch.ids.length) {
                if (i == batch.prefetchAt) {
                    prefetch();
                }
                return batch.ids[i];
            }
            advance(batch);
        }
    }

    @Override
    public long[] nextIds(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = nextId();
        }
        return ids;
    }

    /** Starts fetching the next batch unless one is on its way. */
    private void prefetch() {
        CompletableFuture<long[]> fetching = new CompletableFuture<>();
        if (next.compareAndSet(null, fetching)) {
            int size = batchSize;
            fetcher.execute(() -> {
                try {
                    fetching.complete(fetch(size));
                } catch (Throwable e) {
                    fetching.completeExceptionally(e);
                }
            });
        }
    }

    /** The batch is spent: install the next one (one thread does it; the others wait for it). */
    private synchronized void advance(Batch spent) {
        if (current != spent) {
            return; // another thread installed one meanwhile
        }
        long deadline = System.nanoTime() + maxWaitNanos;
        long[] ids = takeNext(deadline);
        if (increasing && spent.ids.length > 0) {
            long last = spent.ids[spent.ids.length - 1];
            int from = 0;
            while (from < ids.length && ids[from] <= last) {
                from++;
            }
            ids = from == 0 ? ids : Arrays.copyOfRange(ids, from, ids.length);
        }
        adaptBatchSize(spent);
        current = new Batch(ids, (int) (ids.length * prefetchThreshold));
    }

    /** Aim at one fetch per target interval: double or halve at most, within 1 .. maxBatch. */
    private void adaptBatchSize(Batch spent) {
        if (spent == Batch.EMPTY || spent.ids.length == 0) {
            return;
        }
        long lasted = Math.max(1, System.nanoTime() - spent.installedNanos);
        int size = batchSize;
        int wanted = lasted < TARGET_FETCH_INTERVAL_NANOS / 2 ? size * 2
                : lasted > TARGET_FETCH_INTERVAL_NANOS * 2 ? size / 2 : size;
        batchSize = Math.max(1, Math.min(maxBatch, wanted));
    }

    /** The prefetched batch, or one fetched now, retried until the deadline. */
    private long[] takeNext(long deadline) {
        Throwable failure = null;
        CompletableFuture<long[]> fetching = next.getAndSet(null);
        if (fetching != null) {
            try {
                return fetching.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException | CompletionException e) {
                failure = e.getCause();
                if (failure instanceof LeafRequestException refused) {
                    throw refused;
                }
            } catch (TimeoutException e) {
                failure = e; // its IDs, should they come, are never used: none is served twice
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LeafUnavailableException("interrupted while waiting for IDs of " + path, e);
            }
        }
        while (System.nanoTime() - deadline < 0) {
            try {
                long[] ids = fetch(batchSize);
                if (ids.length > 0) {
                    return ids;
                }
            } catch (IOException e) {
                failure = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LeafUnavailableException("interrupted while waiting for IDs of " + path, e);
            }
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left > 0) {
                try {
                    Thread.sleep(Math.min(RETRY_PAUSE_MILLIS, left));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LeafUnavailableException("interrupted while waiting for IDs of " + path, e);
                }
            }
        }
        throw new LeafUnavailableException("No Leaf server gave IDs of " + path + " within "
                + TimeUnit.NANOSECONDS.toMillis(maxWaitNanos) + " ms (servers " + servers.servers() + "); last failure: "
                + failure, failure);
    }

    /** One batch: {@code count} IDs, one per line; an answer of another length or shape is dropped whole. */
    private long[] fetch(int count) throws IOException, InterruptedException {
        byte[] body = servers.get(path + (path.indexOf('?') >= 0 ? '&' : '?') + "count=" + count);
        long[] ids = new long[count];
        int n = 0;
        long value = 0;
        boolean inNumber = false;
        for (byte b : body) {
            if (b >= '0' && b <= '9') {
                if (value > (Long.MAX_VALUE - (b - '0')) / 10) {
                    throw new IOException("unexpected answer for " + path + ": a number beyond 64 bits");
                }
                value = value * 10 + (b - '0');
                inNumber = true;
            } else if (b == '\n') {
                if (!inNumber || n == count) {
                    throw new IOException("unexpected answer for " + path + ": not " + count + " IDs, one per line");
                }
                ids[n++] = value;
                value = 0;
                inNumber = false;
            } else if (b != '\r') {
                throw new IOException("unexpected answer for " + path + ": not a list of IDs");
            }
        }
        if (inNumber && n < count) {
            ids[n++] = value; // a last line without its newline
        }
        if (n != count) {
            throw new IOException("unexpected answer for " + path + ": " + n + " IDs where " + count + " were asked");
        }
        return ids;
    }
}
