package org.leafid.client;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.leafid.core.format.FormatPattern;

/**
 * The strings of one format ({@code leaf.formats.<name>} on the servers), prefetched in batches as
 * IDs are: a fetch starts in the background when what is buffered falls to the prefetch threshold
 * of the last batch, sized to last about the target fetch interval; a caller waits at most
 * {@code maxWait} when nothing is buffered. Every answer passes {@link FormatAnswerCheck} first.
 * Thread-safe.
 */
public final class FormatSource {

    private static final long SHORTEST_RETRY_NANOS = Duration.ofMillis(20).toNanos();

    private final String name;
    private final String path;
    private final HttpBatchSource source;
    private final ScheduledExecutorService fetchers;
    private final BatchSizer sizer;
    private final double prefetchThreshold;
    private final Duration maxWait;
    private final ClientMeters meters;
    private final FormatAnswerCheck check;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Guarded by {@link #lock}. */
    private final ArrayDeque<String> ready = new ArrayDeque<>();
    private boolean fetching;
    private int lastBatch;
    private RuntimeException lastFailure;
    private volatile boolean closed;

    FormatSource(String name, HttpBatchSource source, ScheduledExecutorService fetchers, BatchSizer sizer,
            double prefetchThreshold, Duration maxWait, ClientMeters meters) {
        this.name = name;
        this.path = "/api/format/get/" + name + "?";
        this.source = source;
        this.fetchers = fetchers;
        this.sizer = sizer;
        this.prefetchThreshold = prefetchThreshold;
        this.maxWait = maxWait;
        this.check = new FormatAnswerCheck(name);
        this.meters = meters.forSource("format", name, this::buffered); // last: the gauge may read at once
    }

    /**
     * The next string of the format.
     *
     * @throws LeafUnavailableException when none came within {@code maxWait}
     * @throws LeafRequestException when the servers refuse the format (unknown, exhausted)
     */
    public String next() {
        return next(1)[0];
    }

    /** The next {@code count} strings, in the order the servers issued them. */
    public String[] next(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        String[] values = new String[count];
        long deadline = System.nanoTime() + maxWait.toNanos();
        lock.lock();
        try {
            for (int i = 0; i < count; i++) {
                while (ready.isEmpty()) {
                    startFetchLocked();
                    awaitLocked(deadline);
                }
                values[i] = ready.pollFirst();
            }
            if (ready.size() <= prefetchThreshold * lastBatch) {
                startFetchLocked();
            }
        } finally {
            lock.unlock();
        }
        return values;
    }

    /** The pattern the servers answered with; null before the first answer. */
    public FormatPattern pattern() {
        return check.pattern();
    }

    /** Strings buffered now. */
    public int buffered() {
        lock.lock();
        try {
            return ready.size();
        } finally {
            lock.unlock();
        }
    }

    void close() {
        closed = true;
        lock.lock();
        try {
            ready.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void awaitLocked(long deadline) {
        if (closed) {
            throw new LeafUnavailableException("The Leaf client is closed", Duration.ZERO, null);
        }
        RuntimeException failure = lastFailure;
        if (failure instanceof LeafRequestException refused) {
            lastFailure = null;
            throw refused;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new LeafUnavailableException("No strings of format " + name + " within " + maxWait.toMillis()
                    + " ms" + (failure == null ? "" : ": " + failure.getMessage()), maxWait, failure);
        }
        try {
            changed.awaitNanos(left);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LeafUnavailableException("Interrupted while waiting for strings of format " + name,
                    Duration.ofNanos(maxWait.toNanos() - left), e);
        }
    }

    private void startFetchLocked() {
        if (fetching || closed) {
            return;
        }
        fetching = true;
        fetchers.schedule(this::fetch, 0, TimeUnit.NANOSECONDS);
    }

    private void fetch() {
        if (closed) {
            return;
        }
        int size = sizer.next(System.nanoTime());
        String[] values;
        try {
            values = source.fetchText(path, size, check);
            meters.fetched(values.length);
        } catch (LeafRequestException e) {
            meters.refused();
            settle(e);
            return;
        } catch (ServersUnavailableException e) {
            settle(new LeafUnavailableException(e.getMessage(), Duration.ZERO, e));
            lock.lock();
            try {
                fetching = true; // keeps its place: asks again when the first server may be asked
            } finally {
                lock.unlock();
            }
            fetchers.schedule(this::fetch, Math.max(SHORTEST_RETRY_NANOS, e.retryAtNanos() - System.nanoTime()),
                    TimeUnit.NANOSECONDS);
            return;
        }
        lock.lock();
        try {
            fetching = false;
            lastFailure = null;
            lastBatch = values.length;
            for (String value : values) {
                ready.addLast(value);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** A fetch that ends without strings wakes the waiting callers with why. */
    private void settle(RuntimeException failure) {
        lock.lock();
        try {
            fetching = false;
            lastFailure = failure;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
