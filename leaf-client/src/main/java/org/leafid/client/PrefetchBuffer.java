package org.leafid.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The double buffer of one source (a tag, snowflake, an app's shard): the batch being served and
 * the batches fetched after it.
 *
 * <p>Fast path, no lock and no shared write: the next ID of this thread's {@link Claim}. Otherwise
 * a new claim, one compare-and-set on the current batch's cursor: indexes claimed are IDs nobody else
 * gets; the claimer of {@code prefetchAt} starts the fetch of the next batch.
 * Slow path, under the lock, only when the batch is spent: make the next fetched batch current, or
 * start a fetch and wait for one up to the bound.
 *
 * <p>One batch is fetched ahead; two when the batches are at the largest size and the rate may
 * outrun one round trip at a time ({@code ahead} counts batches fetching or fetched, not yet
 * current). Every answer passed the buffer's {@link AnswerCheck} before it arrives here. In the
 * ordered modes (segment tags, snowflake) the fetched batches wait sorted by their first ID, and a
 * batch becoming current starts after the largest ID of those before it: IDs not above it (another
 * server still on an older block after a failover, a server replaying what another gave, or a later
 * answer overtaken by an earlier one) are never served, so each thread's IDs of a tag, and its
 * snowflake IDs, only increase. An answer with no ID above that mark never gets here: the check
 * refuses it as the server's failure ({@link SegmentAnswerCheck}, {@link SnowflakeAnswerCheck}).
 */
final class PrefetchBuffer implements IdSource {

    private static final Logger log = LoggerFactory.getLogger(PrefetchBuffer.class);
    /** The most IDs one thread claims at a time; see {@link Claim}. */
    static final int MOST_PER_CLAIM = 64;
    /** The shortest pause before a fetch is tried again after every server failed. */
    private static final long SHORTEST_RETRY_NANOS = Duration.ofMillis(20).toNanos();

    private final String name;
    private final String path;
    private final boolean increasing;
    private final BatchSource source;
    private final AnswerCheck check;
    private final ScheduledExecutorService executor;
    private final BatchSizer sizer;
    private final double prefetchThreshold;
    private final long maxWaitNanos;
    private final LongSupplier nanos;
    private final ClientMeters meters;

    private volatile Batch current = Batch.empty();
    /** Each thread's IDs claimed and not yet served; see {@link Claim}. */
    private final ThreadLocal<Claim> claims = ThreadLocal.withInitial(Claim::new);
    private final AtomicInteger ahead = new AtomicInteger();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Fetched batches not yet current, in the order they are to be served; guarded by lock, as below. */
    private final List<AnswerIds> ready = new ArrayList<>();
    private LeafRequestException refusal;
    private Exception lastFailure;
    /**
     * Ordered modes: no ID at or below it is served; 0 at first, so no ID at or below 0 either.
     * Written under lock; read by the check without it.
     */
    private volatile long largestServed;
    private boolean closed;
    /** The batches made current so far, for their serials; guarded by lock. */
    private long batches;

    /**
     * @param increasing whether the mode's IDs are ordered (segment, snowflake): served only above the
     *     largest served before
     * @param checks the check of this buffer's answers, given the largest ID it has served (the
     *     ordered modes judge answers by it)
     */
    PrefetchBuffer(String mode, String key, String path, boolean increasing,
            Function<LongSupplier, AnswerCheck> checks, BatchSource source, ScheduledExecutorService executor,
            BatchSizer sizer, double prefetchThreshold, Duration maxWait, LongSupplier nanos, ClientMeters meters) {
        // "segment order", "shard 1/alice"; snowflake has one buffer, its key the mode's own name.
        this.name = mode.equals(key) ? mode : mode + " " + key;
        this.path = path;
        this.increasing = increasing;
        this.source = source;
        this.check = checks.apply(() -> largestServed);
        this.executor = executor;
        this.sizer = sizer;
        this.prefetchThreshold = prefetchThreshold;
        this.maxWaitNanos = maxWait.toNanos();
        this.nanos = nanos;
        this.meters = meters.forSource(mode, key, this::buffered); // last: a gauge may read this buffer at once
    }

    @Override
    public long nextId() {
        Claim claim = claims.get();
        Batch batch = current;
        if (claim.serial == batch.serial && claim.next < claim.end) {
            return claim.id(claim.next++);
        }
        if (claim.serial == batch.serial - 1 && claim.next < claim.end) {
            return claim.id(claim.next++); // claimed from the batch before: still served
        }
        long deadline = 0;
        while (!claim(batch, claim)) {
            if (deadline == 0) {
                deadline = nanos.getAsLong() + maxWaitNanos;
            }
            batch = advance(deadline);
        }
        return claim.id(claim.next++);
    }

    @Override
    public long[] nextIds(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1, was " + n);
        }
        long[] out = new long[n];
        int filled = 0;
        Batch batch = current;
        Claim claim = claims.get();
        if (claim.next < claim.end && claim.serial >= batch.serial - 1) {
            // What this thread claimed first: its IDs are below the batch's cursor, and a thread's IDs increase.
            filled = Math.min(n, claim.end - claim.next);
            for (int i = 0; i < filled; i++) {
                out[i] = claim.id(claim.next + i);
            }
            claim.next += filled;
        }
        long deadline = 0;
        while (filled < n) {
            int start = batch.cursor.get();
            if (start < batch.length) {
                int end = (int) Math.min(batch.length, (long) start + (n - filled));
                if (batch.cursor.compareAndSet(start, end)) {
                    batch.copy(start, out, filled, end - start);
                    filled += end - start;
                    if (start <= batch.prefetchAt && batch.prefetchAt < end) {
                        startFetch();
                    }
                }
                continue;
            }
            if (deadline == 0) {
                deadline = nanos.getAsLong() + maxWaitNanos;
            }
            batch = advance(deadline);
        }
        return out;
    }

    /**
     * Claims the next IDs of {@code batch} for this thread into {@code claim}; false when the batch
     * is spent. One ID at a time until the thread has taken {@value #MOST_PER_CLAIM} that way, then
     * twice as many at each claim, up to the batch's {@code mostPerClaim}; back to one at a time
     * after the thread took nothing during a whole batch.
     */
    private boolean claim(Batch batch, Claim claim) {
        if (claim.serial < batch.serial - 1) {
            claim.single = 0;
            claim.size = 1;
        }
        int size = claim.single < MOST_PER_CLAIM ? 1 : Math.min(claim.size, batch.mostPerClaim);
        while (true) {
            int start = batch.cursor.get();
            if (start >= batch.length) {
                return false;
            }
            int end = start + Math.min(batch.length - start, size);
            if (batch.cursor.compareAndSet(start, end)) {
                if (start <= batch.prefetchAt && batch.prefetchAt < end) {
                    startFetch();
                }
                batch.claimInto(claim, start, end - start);
                claim.serial = batch.serial;
                if (claim.single < MOST_PER_CLAIM) {
                    claim.single++;
                } else {
                    claim.size = Math.min(MOST_PER_CLAIM, size * 2);
                }
                return true;
            }
        }
    }

    @Override
    public int buffered() {
        lock.lock();
        try {
            int count = current.remaining();
            for (AnswerIds fetched : ready) {
                count += fetched.count();
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
            current = Batch.closed();
            ready.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** A batch with IDs left: the current one if another thread moved on, the next fetched, or one waited for. */
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
                if (!ready.isEmpty()) {
                    AnswerIds fetched = ready.remove(0);
                    ahead.decrementAndGet();
                    if (sizer.atLargest()) {
                        startFetch(); // keep two ahead: the rate may outrun one round trip at a time
                    }
                    Batch next = usable(fetched);
                    if (next != null) {
                        current = next;
                        return next;
                    }
                    continue;
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

    /**
     * The fetched IDs as the batch to serve next (guarded by lock), numbered after the current one:
     * in an ordered mode, from the first ID above every ID served before; null when none is.
     */
    private Batch usable(AnswerIds ids) {
        if (!increasing) {
            return new Batch(++batches, ids, 0, prefetchThreshold);
        }
        int start = ids.firstAbove(largestServed);
        if (start == ids.count()) {
            // Passed the check, then overtaken by a batch fetched at the same time and served first.
            log.debug("Dropped {} IDs of {} not above {} (an answer overtaken)", ids.count(), name, largestServed);
            return null;
        }
        if (start > 0) {
            log.debug("Skipped {} IDs of {} not above {} (a server behind the one served from)", start, name,
                    largestServed);
        }
        largestServed = ids.last();
        return new Batch(++batches, ids, start, prefetchThreshold);
    }

    private LeafUnavailableException unavailable() {
        Duration waited = Duration.ofNanos(maxWaitNanos);
        String cause = lastFailure == null ? "no server answered yet" : lastFailure.getMessage();
        return new LeafUnavailableException("No IDs of " + name + " within " + waited.toMillis()
                + " ms, the buffer being spent: " + cause + ". Check that a Leaf server is up and reachable: "
                + source.servers() + ".",
                waited, lastFailure);
    }

    private Duration waited(long deadline) {
        return Duration.ofNanos(Math.max(0, maxWaitNanos - (deadline - nanos.getAsLong())));
    }

    /** Starts a fetch unless enough batches are fetching or fetched already. Lock-free. */
    private void startFetch() {
        int most = sizer.atLargest() ? 2 : 1;
        while (true) {
            int now = ahead.get();
            if (now >= most) {
                return;
            }
            if (ahead.compareAndSet(now, now + 1)) {
                schedule(0);
                return;
            }
        }
    }

    private void schedule(long delayNanos) {
        try {
            executor.schedule(this::fetch, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            ahead.decrementAndGet(); // the client is closing
        }
    }

    /** Runs on the fetch executor; holds one of the {@code ahead} places until its batch is current. */
    private void fetch() {
        int size = sizer.next(nanos.getAsLong());
        try {
            AnswerIds ids = source.fetch(path, size, check);
            meters.fetched(ids.count());
            deliver(ids);
            startFetch(); // a second one ahead, when the size allows it
        } catch (LeafInvalidInputException e) {
            if (Problem.shortType(e.type()).equals("invalid-count") && sizer.refusedAsTooLarge(size)) {
                log.warn("A Leaf server refused a batch of {} IDs of {} ({}); asking for {} at most from now on: "
                        + "set the client's maxBatch to at most the servers' leaf.max-batch, or its maxRangeBatch (segment "
                        + "tags) to at most their leaf.segment.max-range-batch", size, name, e.detail(),
                        sizer.largest());
                schedule(0);
                return;
            }
            meters.refused();
            settle(e, e);
        } catch (LeafRequestException e) {
            meters.refused();
            settle(e, e);
        } catch (ServersUnavailableException e) {
            lock.lock();
            try {
                lastFailure = e;
            } finally {
                lock.unlock();
            }
            // Keeps its place: asks again when the first server may be asked, whether or not someone waits.
            schedule(Math.max(SHORTEST_RETRY_NANOS, e.retryAtNanos() - nanos.getAsLong()));
        } catch (RuntimeException e) {
            log.error("Fetching IDs of {} failed unexpectedly; the next call that finds the buffer spent tries again",
                    name, e);
            settle(null, e);
        }
    }

    private void deliver(AnswerIds ids) {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            int at = ready.size();
            if (increasing) { // sorted by first ID: an answer overtaken by a later one is not lost
                while (at > 0 && ready.get(at - 1).first() > ids.first()) {
                    at--;
                }
            }
            ready.add(at, ids);
            lastFailure = null;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** A fetch that ends without a batch gives its place back and wakes the waiting callers. */
    private void settle(LeafRequestException refused, Exception failure) {
        ahead.decrementAndGet();
        lock.lock();
        try {
            if (refused != null) {
                refusal = refused;
            }
            lastFailure = failure;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The IDs a thread claimed and has not served yet ({@code next} to {@code end}): a run's as its
     * first ID, an array's copied out (so a claim keeps no batch, and no array, alive); and how the
     * next claim is sized.
     * A thread claims one ID at a time until it has taken {@value #MOST_PER_CLAIM} that way, then twice
     * as many at each claim, up to 64 and at most 1/1024 of the batch: threads taking IDs at full rate
     * touch the shared cursor once per up to 64 IDs instead of once per ID (with two threads or more,
     * that contended atomic add per ID was the whole cost of an ID), while a thread taking a few IDs
     * (a thread per request) claims exactly what it takes. What a thread holds is served while it comes
     * from the current batch or the one before; older, it is never served: a gap of at most 63 IDs,
     * left only by a thread that took 64 or more and then nothing during a whole batch, never a repeat.
     * So each thread's IDs increase, and no ID (no snowflake timestamp) is older than the batch before
     * the current one.
     */
    static final class Claim {

        /** A copy of the IDs claimed from a batch held as an array; unused for a run. */
        final long[] copied = new long[MOST_PER_CLAIM];
        /** The IDs claimed: {@code copied}, or null for a run's, which are {@code first} plus the index. */
        long[] ids;
        long first;
        int next;
        int end;
        /** The serial of the batch the IDs came from; -1 before the first claim. */
        long serial = -1;
        /** The IDs claimed one at a time since the thread started, or last took nothing during a whole batch. */
        int single;
        /** The size of the next claim once past the single ones. */
        int size = 1;

        long id(int index) {
            return ids == null ? first + index : ids[index];
        }
    }
}
