package org.leafid.client;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The double buffer of one source (a tag, snowflake, an app's shard): the batch being served and
 * the batches fetched after it, in fetch order.
 *
 * <p>Fast path, no lock and no call: (1) read {@code current}; (2) claim indexes with one atomic add
 * on its cursor; (3) an index inside the batch is an ID nobody else gets; the taker of
 * {@code prefetchAt} starts the fetch of the next batch. Slow path, under the lock, only when the
 * claim fell past the end: promote the oldest fetched batch, or start a fetch and wait for one up
 * to the bound. At most one fetch runs at a time ({@code fetching}), so batches arrive, and are
 * served, in the order they were fetched; for segment tags a batch's IDs not above the largest one
 * already taken in (another server still on an older block, after a failover) are dropped, so the
 * client's IDs of a tag only increase.
 */
final class PrefetchBuffer implements IdSource {

    private static final Logger log = LoggerFactory.getLogger(PrefetchBuffer.class);
    /** The shortest pause before a fetch is tried again after every server failed. */
    private static final long SHORTEST_RETRY_NANOS = Duration.ofMillis(20).toNanos();
    /** Batches in a row wholly at or below IDs taken before, after which the tag is reported broken. */
    private static final int MOST_STALE_BATCHES = 32;

    private final String name;
    private final String path;
    private final boolean increasing;
    private final BatchSource source;
    private final ScheduledExecutorService executor;
    private final BatchSizer sizer;
    private final double prefetchThreshold;
    private final long maxWaitNanos;
    private final LongSupplier nanos;
    private final ClientMeters meters;

    private volatile Batch current = new Batch(new long[0], -1);
    private final AtomicBoolean fetching = new AtomicBoolean();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Fetched batches not yet current, oldest first; guarded by lock, as are the fields below. */
    private final ArrayDeque<Batch> ready = new ArrayDeque<>();
    private LeafRequestException refusal;
    private ServersUnavailableException lastFailure;
    private long largestId = Long.MIN_VALUE;
    private int staleBatches;
    private boolean closed;

    PrefetchBuffer(String mode, String key, String path, boolean increasing, BatchSource source,
            ScheduledExecutorService executor, BatchSizer sizer, double prefetchThreshold, Duration maxWait,
            LongSupplier nanos, ClientMeters meters) {
        this.name = mode + " " + key;
        this.path = path;
        this.increasing = increasing;
        this.source = source;
        this.executor = executor;
        this.sizer = sizer;
        this.prefetchThreshold = prefetchThreshold;
        this.maxWaitNanos = maxWait.toNanos();
        this.nanos = nanos;
        this.meters = meters.forSource(mode, key, this); // last: a gauge may read this buffer at once
    }

    @Override
    public long nextId() {
        Batch batch = current;
        int index = batch.cursor.getAndIncrement();
        if (index < batch.ids.length) {
            if (index == batch.prefetchAt) {
                startFetch();
            }
            return batch.ids[index];
        }
        long deadline = nanos.getAsLong() + maxWaitNanos;
        while (true) {
            batch = advance(deadline);
            index = batch.cursor.getAndIncrement();
            if (index < batch.ids.length) {
                if (index == batch.prefetchAt) {
                    startFetch();
                }
                return batch.ids[index];
            }
        }
    }

    @Override
    public long[] nextIds(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1, was " + n);
        }
        long[] out = new long[n];
        int filled = 0;
        Batch batch = current;
        long deadline = 0;
        while (true) {
            int want = n - filled;
            // A spent batch is not added to: its cursor must not wrap around past Integer.MAX_VALUE.
            int start = batch.cursor.get() < batch.ids.length ? batch.cursor.getAndAdd(want) : batch.ids.length;
            int end = (int) Math.min(batch.ids.length, (long) start + want);
            if (start < end) {
                System.arraycopy(batch.ids, start, out, filled, end - start);
                filled += end - start;
                if (start <= batch.prefetchAt && batch.prefetchAt < end) {
                    startFetch();
                }
            }
            if (filled == n) {
                return out;
            }
            if (deadline == 0) {
                deadline = nanos.getAsLong() + maxWaitNanos;
            }
            batch = advance(deadline);
        }
    }

    @Override
    public int buffered() {
        lock.lock();
        try {
            int count = current.remaining();
            for (Batch batch : ready) {
                count += batch.remaining();
            }
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiting caller with {@link LeafUnavailableException} and drops what is buffered. */
    void close() {
        lock.lock();
        try {
            closed = true;
            current = new Batch(new long[0], -1);
            ready.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** A batch with IDs left: the current one if another thread moved on, the oldest fetched, or one waited for. */
    private Batch advance(long deadline) {
        lock.lock();
        try {
            while (true) {
                if (closed) {
                    throw new LeafUnavailableException("The Leaf client is closed", Duration.ZERO, null);
                }
                if (current.remaining() > 0) {
                    return current;
                }
                Batch next = ready.poll();
                if (next != null) {
                    current = next;
                    return next;
                }
                if (refusal != null) {
                    LeafRequestException refused = refusal;
                    refusal = null; // the next call asks again: the tag may have been created meanwhile
                    throw refused.rethrown();
                }
                startFetch();
                long left = deadline - nanos.getAsLong();
                if (left <= 0) {
                    throw unavailable();
                }
                changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LeafUnavailableException("Interrupted while waiting for IDs of " + name, waited(deadline), e);
        } finally {
            lock.unlock();
        }
    }

    private LeafUnavailableException unavailable() {
        Duration waited = Duration.ofNanos(maxWaitNanos);
        String cause = lastFailure == null ? "no server answered yet" : lastFailure.getMessage();
        return new LeafUnavailableException("No IDs of " + name + " within " + waited.toMillis()
                + " ms, the buffer being spent: " + cause + ". Check that a Leaf server is up and reachable.",
                waited, lastFailure);
    }

    private Duration waited(long deadline) {
        return Duration.ofNanos(Math.max(0, maxWaitNanos - (deadline - nanos.getAsLong())));
    }

    private void startFetch() {
        if (fetching.compareAndSet(false, true)) {
            schedule(0);
        }
    }

    private void schedule(long delayNanos) {
        try {
            executor.schedule(this::fetch, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            fetching.set(false); // the client is closing
        }
    }

    /** Runs on the fetch executor, one at a time per buffer ({@code fetching} is set). */
    private void fetch() {
        int size = sizer.next(nanos.getAsLong());
        try {
            long[] ids = source.fetch(path, size);
            meters.fetched(ids.length);
            deliver(ids);
        } catch (LeafInvalidInputException e) {
            if (Problem.shortType(e.type()).equals("invalid-count") && sizer.refusedAsTooLarge(size)) {
                log.warn("A Leaf server refused a batch of {} IDs of {} ({}); asking for {} at most from now on: "
                        + "set the client's largest batch to the servers' leaf.max-batch", size, name, e.detail(),
                        sizer.largest());
                schedule(0);
                return;
            }
            meters.refused();
            settle(e, null);
        } catch (LeafRequestException e) {
            meters.refused();
            settle(e, null);
        } catch (ServersUnavailableException e) {
            lock.lock();
            try {
                lastFailure = e;
            } finally {
                lock.unlock();
            }
            // Still fetching: ask again when the first server may be asked, whether or not someone waits.
            schedule(Math.max(SHORTEST_RETRY_NANOS, e.retryAtNanos() - nanos.getAsLong()));
        } catch (RuntimeException e) {
            log.error("Fetching IDs of {} failed unexpectedly; the next call that finds the buffer spent tries again",
                    name, e);
            settle(null, e);
        }
    }

    private void deliver(long[] ids) {
        lock.lock();
        try {
            long[] kept = increasing ? above(ids) : ids;
            if (kept.length == 0 && ++staleBatches < MOST_STALE_BATCHES) {
                // A server still on a block below what was taken in: ask again, keeping `fetching` set.
                schedule(0);
                return;
            }
            if (kept.length == 0) {
                staleBatches = 0;
                throw new IllegalStateException("The servers keep answering IDs of " + name + " at or below "
                        + largestId + ", which this client has handed out already: was the leaf_alloc row set back? "
                        + "The client issues none of them; restart it once the row is above " + largestId);
            }
            staleBatches = 0;
            if (closed) {
                return;
            }
            ready.add(new Batch(kept, Math.min(kept.length - 1, (int) (kept.length * prefetchThreshold))));
            lastFailure = null;
            fetching.set(false);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void settle(LeafRequestException refused, RuntimeException unexpected) {
        lock.lock();
        try {
            refusal = refused;
            if (unexpected != null) {
                lastFailure = new ServersUnavailableException(unexpected.toString(), nanos.getAsLong(), unexpected);
            }
            fetching.set(false);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The IDs above every one taken in before (guarded by lock); drops the rest. */
    private long[] above(long[] ids) {
        int kept = 0;
        long[] out = ids;
        for (long id : ids) {
            if (id > largestId) {
                out[kept++] = id;
                largestId = id;
            }
        }
        if (kept < ids.length) {
            log.debug("Dropped {} IDs of {} not above {} (a server on an older block)", ids.length - kept, name,
                    largestId);
            return Arrays.copyOf(out, kept);
        }
        return out;
    }
}
