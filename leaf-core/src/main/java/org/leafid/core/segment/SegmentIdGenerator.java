package org.leafid.core.segment;

import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.leafid.core.IdGenerator;
import org.leafid.core.LeafException;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.SegmentNotReadyException;
import org.leafid.core.SegmentStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issues one tag's IDs from a double buffer of reserved blocks: the current block serves,
 * and once it is more than 10 % used the next one is loaded in the background. Thread-safe.
 *
 * <p>While the current block has numbers left, {@link #nextId()} is one atomic add: no lock,
 * no allocation. Only switching blocks takes the lock.
 */
public final class SegmentIdGenerator implements IdGenerator {

    private static final Logger log = LoggerFactory.getLogger(SegmentIdGenerator.class);

    private final String tag;
    private final SegmentStore store;
    private final StepPolicy stepPolicy;
    private final InstantSource clock;
    private final Executor loader;
    private final Duration loadWait;
    private final Object lock = new Object();

    private volatile Segment current = Segment.empty();
    /** The loaded block waiting to serve; guarded by {@link #lock}. */
    private Segment next;
    /** The load under way, at most one; guarded by {@link #lock}. */
    private CompletableFuture<Void> loading;
    /** Step bookkeeping, written only by the single load under way. */
    private volatile long step;
    private volatile long rowStep;
    private volatile long lastLoadMillis = -1;

    public SegmentIdGenerator(String tag, SegmentStore store, StepPolicy stepPolicy, InstantSource clock,
            Executor loader, Duration loadWait) {
        this.tag = tag;
        this.store = store;
        this.stepPolicy = stepPolicy;
        this.clock = clock;
        this.loader = loader;
        this.loadWait = loadWait;
    }

    @Override
    public long nextId() {
        for (;;) {
            Segment segment = current;
            long offset = segment.claim();
            if (offset < segment.size) {
                if (offset == segment.preloadOffset) {
                    preloadAfter(segment); // exactly one caller claims this offset
                }
                return segment.start + offset;
            }
            advancePast(segment);
        }
    }

    public String tag() {
        return tag;
    }

    /** A consistent-enough view for monitoring; not used for issuing. */
    public SegmentBufferView view() {
        Segment serving = current;
        Segment waiting;
        boolean loadUnderway;
        synchronized (lock) {
            waiting = next;
            loadUnderway = loading != null;
        }
        return new SegmentBufferView(tag, serving.loadedAtMillis >= 0, serving.start, serving.end(),
                serving.remaining(), waiting == null ? null : waiting.start, waiting == null ? null : waiting.end(),
                waiting != null, loadUnderway, step, rowStep, lastLoadMillis);
    }

    /** Switches to the next block, or starts loading it and waits (bounded) for it. */
    private void advancePast(Segment spent) {
        CompletableFuture<Void> pending;
        synchronized (lock) {
            if (current != spent) {
                return; // another thread switched already
            }
            if (next != null) {
                current = next;
                next = null;
                return;
            }
            pending = startLoadLocked();
        }
        awaitLoad(pending);
    }

    private void preloadAfter(Segment serving) {
        synchronized (lock) {
            if (current == serving && next == null) {
                startLoadLocked();
            }
        }
    }

    private CompletableFuture<Void> startLoadLocked() {
        if (loading != null) {
            return loading;
        }
        CompletableFuture<Void> load = new CompletableFuture<>();
        loading = load;
        try {
            loader.execute(() -> runLoad(load));
        } catch (RejectedExecutionException e) {
            loading = null;
            load.completeExceptionally(e);
        }
        // The local future, not the field: a loader that ran the task in this thread, or refused
        // it, has already cleared the field.
        return load;
    }

    private void runLoad(CompletableFuture<Void> load) {
        try {
            Segment loaded = reserveBlock();
            // The block is published before the future completes, so a waiter that wakes finds it.
            synchronized (lock) {
                next = loaded;
                loading = null;
            }
            load.complete(null);
        } catch (RuntimeException | Error e) {
            synchronized (lock) {
                loading = null;
            }
            log.warn("Tag '{}': loading the next block failed: {}", tag, e.toString());
            load.completeExceptionally(e);
        }
    }

    private Segment reserveBlock() {
        long startedAt = clock.millis();
        long previousStep = step;
        long wanted = lastLoadMillis < 0
                ? 1 // first load: exactly the row's step
                : stepPolicy.next(step, rowStep, Duration.ofMillis(startedAt - lastLoadMillis));
        AllocRow row = store.reserve(tag, wanted);
        long size = Math.max(wanted, row.step());
        step = size;
        rowStep = row.step();
        lastLoadMillis = startedAt;
        Segment loaded = new Segment(row.maxId() - size, size, startedAt);
        log.info("Tag '{}': reserved block [{}, {}) of {} in {} ms", tag, loaded.start, loaded.end(), size,
                clock.millis() - startedAt);
        if (previousStep != 0 && previousStep != size) {
            log.info("Tag '{}': step changed from {} to {} (row step {})", tag, previousStep, size, row.step());
        }
        return loaded;
    }

    private void awaitLoad(CompletableFuture<Void> pending) {
        try {
            pending.get(loadWait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new SegmentNotReadyException(tag, loadWait);
        } catch (InterruptedException e) {
            throw new LeafInterruptedException("tag '" + tag + "' to load its next block", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof LeafException leaf) {
                throw leaf;
            }
            throw new SegmentStoreException(tag, cause);
        }
    }
}
