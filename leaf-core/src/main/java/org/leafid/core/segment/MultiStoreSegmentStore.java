package org.leafid.core.segment;

import java.time.InstantSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Blocks from several independent stores (issue 45), each owning numbers no other can give
 * ({@link Stripes}): a block comes from the first store in the listed order that answers within
 * the budget, so that IDs stay dense while the first store lives and keep flowing while any one
 * does. A store that fails or stalls is marked down and skipped; a probe in the background finds
 * when it answers again. Every block starts above the number the caller asks for
 * ({@link FloorSegmentStore#reserveFrom}), so a switch of store never answers below what a server
 * served.
 *
 * <p>A reservation that outlives its budget may still commit on its store: its block is then never
 * served, a gap and never a repeat.
 */
public final class MultiStoreSegmentStore implements FloorSegmentStore, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MultiStoreSegmentStore.class);

    private final List<Member> members;
    private final Duration budget;
    private final Bound bound;
    private final Duration warmUp;
    private final InstantSource clock;
    private final ExecutorService calls;
    private final ScheduledExecutorService probes;

    /**
     * One store of the fleet.
     *
     * @param name how messages, meters and the status page name it ({@code stores[1]})
     * @param where the store as an operator finds it (its url without password)
     */
    public record Store(String name, String where, FloorSegmentStore store) {}

    /** What keeps one store's call within the budget. */
    public enum Bound {
        /**
         * A thread of this class makes the call, and the caller stops waiting at the budget: for
         * stores that could block without end.
         */
        THREAD,
        /**
         * The store itself: its connection wait and its network timeout are the budget, so a store
         * steadily up is asked on the caller's own thread. The hand-off to another thread costs about
         * 0.3 ms of each block (SeveralStoresReservationBenchmark); a store up again only lately, or
         * marked down, is still asked through a thread.
         */
        STORE
    }

    /**
     * One store as the status page, health and meters show it.
     *
     * @param lastBlockEnd the end of the last block it gave this server, 0 before the first
     * @param lastAnswerMillis when it last answered (the clock's millis), 0 before the first answer
     * @param lastFailure why it was last marked down, null when never
     */
    public record StoreStatus(String name, String where, boolean up, long lastBlockEnd, long lastAnswerMillis,
            long blocks, String lastFailure) {}

    /**
     * @param budget how long one store may take to answer a reservation before the next is asked
     * @param probeInterval how often a store marked down is asked whether it answers again
     * @param warmUp how long a store found up again is asked after the others that stayed up
     */
    public MultiStoreSegmentStore(List<Store> stores, Duration budget, Duration probeInterval, Duration warmUp,
            InstantSource clock) {
        this(stores, budget, Bound.THREAD, probeInterval, warmUp, clock);
    }

    /**
     * @param budget how long one store may take to answer a reservation before the next is asked
     * @param bound what keeps a call within the budget: {@link Bound#STORE} only when every store's
     *     own timeouts are at most the budget
     * @param probeInterval how often a store marked down is asked whether it answers again
     * @param warmUp how long a store found up again is asked after the others that stayed up
     */
    public MultiStoreSegmentStore(List<Store> stores, Duration budget, Bound bound, Duration probeInterval,
            Duration warmUp, InstantSource clock) {
        if (stores.size() < 2) {
            throw new IllegalArgumentException("several stores are at least 2: " + stores.size());
        }
        if (budget.isNegative() || budget.isZero()) {
            throw new IllegalArgumentException("budget must be positive: " + budget);
        }
        this.members = stores.stream().map(Member::new).toList();
        this.budget = budget;
        this.bound = bound;
        this.warmUp = warmUp;
        this.clock = clock;
        AtomicInteger threads = new AtomicInteger();
        this.calls = Executors.newCachedThreadPool(task -> daemon(task, "leaf-store-" + threads.incrementAndGet()));
        this.probes = Executors.newSingleThreadScheduledExecutor(task -> daemon(task, "leaf-store-probe"));
        long every = probeInterval.toMillis();
        probes.scheduleWithFixedDelay(this::probeDown, every, every, TimeUnit.MILLISECONDS);
    }

    private static Thread daemon(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    /**
     * The order stores are asked in: those up for a while, those up again only lately (a database
     * just restarted may still be recovering, and be slow for its first writes), those marked down.
     */
    private enum Pass { STEADY, WARMING, DOWN }

    /**
     * The block from the first store that answers: the stores steadily up first, in order; then
     * those up again only lately; then, when none of them did, those marked down, in case one
     * answers again before its probe noticed.
     */
    @Override
    public AllocRow reserveFrom(String tag, long requestedStep, long from) {
        List<String> failures = new ArrayList<>();
        RuntimeException answer = null;
        long now = clock.millis();
        for (Pass pass : Pass.values()) {
            for (Member member : members) {
                if (member.pass(now) != pass || !member.store.store().serving()) {
                    continue;
                }
                try {
                    Callable<AllocRow> reservation = () -> member.store.store().reserveFrom(tag, requestedStep, from);
                    AllocRow row = bound == Bound.STORE && pass == Pass.STEADY ? member.callHere(reservation)
                            : member.call(reservation);
                    member.blocks.increment();
                    member.lastBlockEnd = row.maxId();
                    return row;
                } catch (UnknownTagException | TagExhaustedException refused) {
                    // An answer, not a fault: the store is up, but has no block of this tag to give.
                    answer = answer == null ? refused : answer;
                    failures.add(member.store.name() + ": " + refused.getMessage());
                } catch (SegmentStoreException failed) {
                    failures.add(member.store.name() + ": " + failed.getMessage());
                }
            }
        }
        if (answer != null && failures.size() == servingCount() && allAnswered()) {
            throw answer;
        }
        throw new SegmentStoreException(tag, "no store of leaf.jdbc.stores gave a block: "
                + String.join("; ", failures), null);
    }

    private boolean allAnswered() {
        return members.stream().filter(member -> member.store.store().serving()).allMatch(member -> member.up);
    }

    private long servingCount() {
        return members.stream().filter(member -> member.store.store().serving()).count();
    }

    /** The tags of every store that answers: a tag created while a store was down is missing only there. */
    @Override
    public List<String> tags() {
        Set<String> tags = new LinkedHashSet<>();
        List<String> failures = new ArrayList<>();
        for (Member member : members) {
            try {
                tags.addAll(member.call(() -> member.store.store().tags()));
            } catch (SegmentStoreException failed) {
                failures.add(member.store.name() + ": " + failed.getMessage());
            }
        }
        if (failures.size() == members.size()) {
            throw new SegmentStoreException(null, "no store of leaf.jdbc.stores answered: "
                    + String.join("; ", failures), null);
        }
        return tags.stream().sorted().toList();
    }

    /** Every store's state, in the listed order. */
    public List<StoreStatus> status() {
        return members.stream().map(member -> new StoreStatus(member.store.name(), member.store.where(), member.up,
                member.lastBlockEnd, member.lastAnswerMillis, member.blocks.sum(), member.lastFailure)).toList();
    }

    /** The stores as configured, in the listed order. */
    public List<Store> stores() {
        return members.stream().map(member -> member.store).toList();
    }

    private void probeDown() {
        for (Member member : members) {
            if (!member.up && member.probing.compareAndSet(false, true)) {
                try {
                    calls.execute(() -> {
                        try {
                            member.store.store().tags();
                            member.answered();
                        } catch (RuntimeException stillDown) {
                            log.debug("Store {} still does not answer: {}", member.store.name(), stillDown.toString());
                        } finally {
                            member.probing.set(false);
                        }
                    });
                } catch (java.util.concurrent.RejectedExecutionException closed) {
                    member.probing.set(false);
                }
            }
        }
    }

    @Override
    public void close() {
        probes.shutdownNow();
        calls.shutdownNow();
    }

    /** A store and what this server saw of it. */
    private final class Member {

        private final Store store;
        private final LongAdder blocks = new LongAdder();
        private final AtomicBoolean probing = new AtomicBoolean();
        private volatile boolean up = true;
        /** When it was last found up again after being down (the clock's millis), 0 when never down. */
        private volatile long upAgainAt;
        private volatile long lastBlockEnd;
        private volatile long lastAnswerMillis;
        private volatile String lastFailure;

        Member(Store store) {
            this.store = store;
        }

        /**
         * The store's answer within the budget. Its refusals pass unchanged; a failure, a stall or
         * an unexpected error marks it down and comes back as a {@link SegmentStoreException}.
         */
        <T> T call(Callable<T> request) {
            Future<T> answer = calls.submit(request);
            try {
                T result = answer.get(budget.toMillis(), TimeUnit.MILLISECONDS);
                answered();
                return result;
            } catch (TimeoutException stalled) {
                answer.cancel(true);
                throw down("no answer within " + budget.toMillis() + " ms (leaf.jdbc.store-timeout)");
            } catch (InterruptedException e) {
                answer.cancel(true);
                Thread.currentThread().interrupt();
                throw new SegmentStoreException(null, "interrupted while waiting for " + store.name(), e);
            } catch (ExecutionException e) {
                throw failed(e.getCause());
            }
        }

        /** The store's answer on the caller's thread: the store bounds its own time ({@link Bound#STORE}). */
        <T> T callHere(Callable<T> request) {
            T result;
            try {
                result = request.call();
            } catch (Exception e) {
                throw failed(e);
            }
            answered();
            return result;
        }

        /** A refusal passes unchanged; anything else marks the store down. */
        private RuntimeException failed(Throwable failure) {
            if (failure instanceof UnknownTagException | failure instanceof TagExhaustedException) {
                answered();
                return (RuntimeException) failure;
            }
            return down(failure.getMessage() == null ? failure.toString() : failure.getMessage());
        }

        Pass pass(long now) {
            return !up ? Pass.DOWN : now - upAgainAt < warmUp.toMillis() ? Pass.WARMING : Pass.STEADY;
        }

        // Synchronized: two loads failing (or answering) at once change the state, and log it, once.
        synchronized void answered() {
            lastAnswerMillis = clock.millis();
            if (!up) {
                upAgainAt = lastAnswerMillis;
                up = true;
                log.info("Store {} ({}) answers again: its blocks are used again", store.name(), store.where());
            }
        }

        synchronized SegmentStoreException down(String why) {
            lastFailure = why;
            if (up) {
                up = false;
                log.warn("Store {} ({}) is skipped: {}. Blocks come from the other stores of leaf.jdbc.stores; it is"
                        + " asked again in the background. Check that database", store.name(), store.where(), why);
            }
            return new SegmentStoreException(null, why, null);
        }
    }
}
