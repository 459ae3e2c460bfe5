package org.leafid.core.segment;

import java.time.Duration;
import java.time.Instant;
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
import org.leafid.core.SaturatedMath;
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
    private final SegmentLoadListener loadListener;
    private final long wentBackSkipBlocks;
    private final ReservationWitness witness;
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
    /**
     * One past the highest number of any block this generator reserved, written only by the single
     * load under way: nothing below it is served again, whatever the store answers later.
     */
    private volatile long reservedUpTo;
    /** Reservations that try to carry a row that went back past {@link #reservedUpTo} before a load fails. */
    private static final int MAX_CATCH_UPS = 3;
    /** Numbers of the blocks switched away from: all of them were issued. Guarded by {@link #lock}. */
    private volatile long issuedFromSpentBlocks;
    /** Why the last load failed, or null when it succeeded. */
    private volatile String lastLoadFailure;

    public SegmentIdGenerator(String tag, SegmentStore store, StepPolicy stepPolicy, InstantSource clock,
            Executor loader, Duration loadWait) {
        this(tag, store, stepPolicy, clock, loader, loadWait, SegmentLoadListener.NONE);
    }

    public SegmentIdGenerator(String tag, SegmentStore store, StepPolicy stepPolicy, InstantSource clock,
            Executor loader, Duration loadWait, SegmentLoadListener loadListener) {
        this(tag, store, new SegmentSettings(stepPolicy, loadWait, loadListener), clock, loader);
    }

    public SegmentIdGenerator(String tag, SegmentStore store, SegmentSettings settings, InstantSource clock,
            Executor loader) {
        this.tag = tag;
        this.store = store;
        this.stepPolicy = settings.stepPolicy();
        this.clock = clock;
        this.loader = loader;
        this.loadWait = settings.loadWait();
        this.loadListener = settings.loadListener();
        this.wentBackSkipBlocks = settings.wentBackSkipBlocks();
        this.witness = settings.witness();
        // What this server reserved before its restart, whatever the store says now (a restored backup).
        this.reservedUpTo = witness.witnessed(tag);
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

    /**
     * The next {@code count} IDs, unique and increasing. They are contiguous within a block; a
     * batch that outlasts the current block goes on in the next one.
     */
    public long[] nextIds(int count) {
        // The claims are those of nextRanges; a batch is a run or two, written out here.
        return nextRanges(count).toArray();
    }

    /**
     * The next {@code count} IDs as runs of consecutive numbers: what {@link #nextIds} issues, without
     * writing out every ID. A batch inside one block is one run.
     */
    public IdRanges nextRanges(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        IdRanges.Builder runs = new IdRanges.Builder();
        int filled = 0;
        while (filled < count) {
            Segment segment = current;
            int wanted = count - filled;
            long offset = segment.claim(wanted);
            if (offset < segment.size) {
                int got = (int) Math.min(wanted, segment.size - offset);
                if (offset <= segment.preloadOffset && segment.preloadOffset < offset + got) {
                    preloadAfter(segment); // this claim covered the 10 % mark: exactly one claim does
                }
                runs.add(segment.start + offset, got);
                filled += got;
            } else {
                advancePast(segment);
            }
        }
        return runs.build();
    }

    /**
     * The ID {@link #nextId()} would give now, claiming nothing: for a caller that must know how far
     * a batch would reach before it takes one (a format's room in its period). Loads a block when
     * none is left, as {@code nextId} does (bounded the same way); another thread may take the ID
     * first, so it is where the next ID starts at the earliest.
     */
    public long peekNext() {
        for (;;) {
            Segment segment = current;
            long offset = segment.nextOffset();
            if (offset < segment.size) {
                return segment.start + offset;
            }
            advancePast(segment);
        }
    }

    /**
     * Starts loading the next block in the background when this tag has nothing left to issue
     * and its last load failed, so that it recovers without waiting for a request (a load
     * balancer sends none to an instance that is not ready).
     *
     * @return whether a load was started
     */
    public boolean retryIfStarved() {
        synchronized (lock) {
            if (lastLoadFailure == null || next != null || loading != null || current.remaining() > 0) {
                return false;
            }
            startLoadLocked();
            return true;
        }
    }

    /**
     * Starts loading the first block in the background when nothing is loaded, waiting nor loading:
     * for a tag about to be used (the next period of a format), so that its first ID costs no round
     * trip to the store.
     */
    public void prepare() {
        synchronized (lock) {
            if (current.remaining() == 0 && next == null && loading == null) {
                startLoadLocked();
            }
        }
    }

    /**
     * How many IDs this generator has handed out: derived from the blocks, so counting costs the
     * hot path nothing.
     */
    public long issuedCount() {
        Segment serving;
        long spent;
        synchronized (lock) {
            spent = issuedFromSpentBlocks;
            serving = current;
        }
        return spent + (serving.size - serving.remaining());
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
                waiting != null, loadUnderway, step, rowStep, lastLoadMillis, lastLoadFailure);
    }

    /** Switches to the next block, or starts loading it and waits (bounded) for it. */
    private void advancePast(Segment spent) {
        CompletableFuture<Void> pending;
        synchronized (lock) {
            if (current != spent) {
                return; // another thread switched already
            }
            if (next != null) {
                issuedFromSpentBlocks += spent.size;
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
        Instant started = clock.instant();
        try {
            Segment loaded = reserveBlock();
            lastLoadFailure = null;
            loadListener.loaded(tag, Duration.between(started, clock.instant()), loaded.size);
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
            // Debug only: the load listener reports failures to the operator, throttled, since a
            // database outage fails a load per tag every retry.
            log.debug("Tag '{}': loading the next block failed: {}", tag, e.toString());
            lastLoadFailure = e.getMessage() == null ? e.toString() : e.getMessage();
            if (e instanceof RuntimeException failure) {
                loadListener.failed(tag, Duration.between(started, clock.instant()), failure);
            }
            load.completeExceptionally(e);
        }
    }

    private Segment reserveBlock() {
        long startedAt = clock.millis();
        long previousStep = step;
        long wanted = lastLoadMillis < 0
                ? 1 // first load: exactly the row's step
                : stepPolicy.next(step, rowStep, Duration.ofMillis(startedAt - lastLoadMillis));
        AllocRow row = reserve(wanted, reservedUpTo);
        long size = Math.max(wanted, row.step());
        // Nothing below floor is served. A row answered below the end of this generator's blocks went
        // back; other servers may have reserved above that end since this one last looked, unseen by
        // it, so it leaves a margin above the end unused too, unless a fleet-wide witness sees them.
        long floor = reservedUpTo;
        if (row.maxId() - size < reservedUpTo) {
            floor = SaturatedMath.add(reservedUpTo,
                    witness.fleetWide() ? 0 : SaturatedMath.multiply(wentBackSkipBlocks, size));
            warnWentBack(row.maxId() - size, row.maxId(), floor);
            loadListener.wentBack(tag, row.maxId() - size, floor);
        }
        long start;
        for (int claims = 0; ; claims++) {
            for (int catchUps = 0; catchUps < MAX_CATCH_UPS && row.maxId() <= floor; catchUps++) {
                // A reservation large enough to carry max_id past the floor (again if the row went back
                // once more meanwhile).
                long catchUp = store instanceof FloorSegmentStore ? Math.max(wanted, row.step())
                        : SaturatedMath.add(floor - row.maxId(), Math.max(wanted, row.step()));
                row = reserve(catchUp, floor);
                size = Math.max(catchUp, row.step());
            }
            start = row.maxId() - size;
            if (start < floor) {
                if (row.maxId() <= floor) {
                    throw new SegmentStoreException(tag, store.table() + "'s max_id is " + row.maxId() + ", not above "
                            + floor + " (" + reservedUpTo + ", which this server already served from, and a margin"
                            + " for other servers), even after " + MAX_CATCH_UPS + " reservations to catch up:"
                            + " nothing of it is served; set max_id above " + floor, null);
                }
                size = row.maxId() - floor;
                start = floor;
            }
            // Witnessed before anything of it is served: a restart on a restored store starts above it,
            // and a fleet-wide witness refuses a block that overlaps any server's.
            long witnessedEnd;
            try {
                witnessedEnd = witness.claim(tag, start, row.maxId());
            } catch (FoundTwiceException e) {
                // The message is the whole refusal: what was seen, and the operator's two steps.
                throw new SegmentStoreException(null, e.getMessage(), e);
            }
            if (witnessedEnd == Long.MIN_VALUE) {
                break;
            }
            if (claims == MAX_CATCH_UPS) {
                throw new SegmentStoreException(tag, "every block " + store.table()
                        + " answered overlapped one the fleet's"
                        + " witness holds, even after " + MAX_CATCH_UPS + " reservations to pass its end ("
                        + witnessedEnd + "): nothing of them is served; set max_id above " + witnessedEnd, null);
            }
            warnFleetWentBack(start, row.maxId(), witnessedEnd);
            loadListener.wentBack(tag, start, witnessedEnd);
            floor = Math.max(floor, witnessedEnd);
        }
        step = Math.max(wanted, row.step());
        rowStep = row.step();
        lastLoadMillis = startedAt;
        reservedUpTo = row.maxId();
        Segment loaded = new Segment(start, size, startedAt);
        log.info("Tag '{}': reserved block [{}, {}) of {} in {} ms", tag, loaded.start, loaded.end(), size,
                clock.millis() - startedAt);
        // The step, not the block: a block cut short below reservedUpTo is no change of step.
        if (previousStep != 0 && previousStep != step) {
            log.info("Tag '{}': step changed from {} to {} (row step {})", tag, previousStep, step, row.step());
        }
        return loaded;
    }

    /**
     * A block of the row: from a store that can start it above a number ({@link FloorSegmentStore}:
     * one of several), one at or above {@code from}, so that a switch of store never answers below
     * what this server served; from one store, Leaf's plain reservation, checked by the caller.
     */
    private AllocRow reserve(long requestedStep, long from) {
        return store instanceof FloorSegmentStore floored
                ? floored.reserveFrom(tag, requestedStep, from)
                : store.reserve(tag, requestedStep);
    }

    /**
     * The store answered a block below numbers this generator already served: {@code leaf_alloc} went
     * back (a failover to a replica that lagged, a restored backup, {@code max_id} set back together
     * with its {@code leaf_high_water} mark). Rare, and each time worth an operator's look.
     */
    private void warnWentBack(long blockStart, long blockEnd, long floor) {
        log.warn("Tag '{}': {} answered block [{}, {}), below {} which this server already reserved (its"
                + " own memory, or its witness in the data directory after a restart):"
                + " the row went back (a failover to a lagging replica, a restored backup, or max_id set back with"
                + " its leaf_high_water mark). Numbers below {} are skipped: this server's own and a margin of {}"
                + " blocks for what other servers may have reserved meanwhile. Check that the database is the one"
                + " Leaf last wrote to, and who set the row back", tag, store.table(), blockStart, blockEnd,
                reservedUpTo, floor, wentBackSkipBlocks);
    }

    /**
     * The block overlaps one the fleet-wide witness holds: some server reserved (and may have served)
     * numbers at or above it, and the row went back below them, unseen by this server's own memory.
     */
    private void warnFleetWentBack(long blockStart, long blockEnd, long witnessedEnd) {
        log.warn("Tag '{}': {} answered block [{}, {}), which overlaps blocks the fleet's witness holds"
                + " (up to {}): the row went back (a failover to a lagging replica, a restored backup, or max_id set"
                + " back with its leaf_high_water mark). Nothing below {} is served; the row is carried past it."
                + " Check that the database is the one Leaf last wrote to, and who set the row back", tag,
                store.table(), blockStart, blockEnd, witnessedEnd, witnessedEnd);
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
