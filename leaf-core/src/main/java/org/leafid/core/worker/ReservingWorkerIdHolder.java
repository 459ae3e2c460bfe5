package org.leafid.core.worker;

import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.leafid.core.Durations;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.Sleeper;
import org.leafid.core.worker.WorkerIdRegistry.Registration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the worker id a {@link WorkerIdRegistry} hands out and keeps its time reservation ahead
 * of the clock: IDs may be issued at time t only while t is before the recorded reserved-until
 * time, so a restart, even with the clock stepped back, never reuses a timestamp it may have
 * issued.
 *
 * <p>A lease counts only as far as the registry itself confirmed it: the reservation moves on
 * only after the sink recorded it (the registry, not a cache file or a write still queued), and it
 * is valid for {@code 2 x reportInterval} on the monotonic clock from the moment the last confirmed
 * recording began. A process paused past that (SIGSTOP, a frozen VM, a long GC) may have lost its id
 * to another process meanwhile, whatever its wall clock says, so it refuses
 * ({@link WorkerIdUnavailableException}) until a renewal is confirmed again or the id is found lost.
 *
 * <p>Lifecycle {@code LATENT -> STARTED -> CLOSED}; the constructor does no I/O. When the
 * registry takes the id away ({@link WorkerIdLostException} from the sink), issuing stops at
 * once and the next renewal registers again.
 */
public final class ReservingWorkerIdHolder implements WorkerIdHolder {

    private static final Logger log = LoggerFactory.getLogger(ReservingWorkerIdHolder.class);

    /** The longest a release waits for the clock to reach its final reservation (see awaitClockAt). */
    static final long MAX_RELEASE_WAIT_MILLIS = 1;

    private enum State { LATENT, STARTED, CLOSED }

    private final WorkerIdRegistry registry;
    private final InstantSource clock;
    private final Sleeper sleeper;
    private final Duration reportInterval;
    private final Duration maxStartWait;
    private final LongSupplier nanoTime;
    /** How long a confirmed recording keeps the lease valid, on the monotonic clock. */
    private final long confirmedWindowNanos;
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    /** The id in use; written by start and the renewer thread only. */
    private volatile Registration registration;
    private volatile Held held;
    /** When a reservation was last recorded (the heartbeat), or -1 before the first. */
    private volatile long lastRecordedMillis = -1;
    private volatile ScheduledExecutorService renewer;
    /** True from an urgent renewal's request until it ran, so the request path queues one at most. */
    private final AtomicBoolean urgentRenewalQueued = new AtomicBoolean();
    /** When the last urgent renewal was queued; they are spaced so an outage is not hammered. */
    private volatile long lastUrgentRenewalMillis = Long.MIN_VALUE / 2;
    /** True while renewals fail, so an outage is logged once, not at every renewal. */
    private final AtomicBoolean renewalFailing = new AtomicBoolean();
    /** True from the first refusal after the confirmed window ran out until a renewal is confirmed again. */
    private final AtomicBoolean unconfirmedLogged = new AtomicBoolean();

    /**
     * The lease and how long it is valid on the monotonic clock, read together in one volatile read.
     *
     * @param confirmedUntilNanos {@code nanoTime} at which the last confirmed recording stops covering
     */
    private record Held(WorkerLease lease, long confirmedUntilNanos) {}

    public ReservingWorkerIdHolder(WorkerIdRegistry registry, InstantSource clock, Sleeper sleeper,
            Duration reportInterval, Duration maxStartWait) {
        this(registry, clock, sleeper, reportInterval, maxStartWait, System::nanoTime);
    }

    /** @param nanoTime the monotonic clock the confirmed window is measured on ({@code System::nanoTime}) */
    public ReservingWorkerIdHolder(WorkerIdRegistry registry, InstantSource clock, Sleeper sleeper,
            Duration reportInterval, Duration maxStartWait, LongSupplier nanoTime) {
        if (reportInterval.isNegative() || reportInterval.isZero()) {
            throw new IllegalArgumentException("reportInterval must be positive: " + reportInterval);
        }
        if (maxStartWait.isNegative()) {
            throw new IllegalArgumentException("maxStartWait must not be negative: " + maxStartWait);
        }
        this.registry = registry;
        this.clock = clock;
        this.sleeper = sleeper;
        this.reportInterval = reportInterval;
        this.maxStartWait = maxStartWait;
        this.nanoTime = nanoTime;
        this.confirmedWindowNanos = 2 * reportInterval.toNanos();
    }

    /**
     * A holder of an id that is already decided.
     *
     * @param recordedReservation the reserved-until time found for this id (0 when none): IDs
     *     are issued only at or after it
     */
    public ReservingWorkerIdHolder(int workerId, long recordedReservation, ReservationSink sink,
            InstantSource clock, Sleeper sleeper, Duration reportInterval, Duration maxStartWait) {
        this(fixed(new Registration(workerId, recordedReservation, sink)), clock, sleeper, reportInterval,
                maxStartWait);
    }

    private static WorkerIdRegistry fixed(Registration registration) {
        return () -> registration;
    }

    @Override
    public void start() {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("worker id holder already started or closed: " + state.get());
        }
        try {
            acquire();
        } catch (RuntimeException e) {
            state.set(State.CLOSED); // nothing was issued yet, so failing the start loses nothing
            throw e;
        }
        synchronized (this) {
            // close() may have run while start() waited for the clock: then nothing stays held.
            if (state.get() != State.STARTED) {
                held = null;
                throw new WorkerIdUnavailableException("The worker id holder was closed while starting");
            }
            renewer = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "leaf-worker-id-renewer");
                thread.setDaemon(true);
                return thread;
            });
            long periodMillis = reportInterval.toMillis();
            renewer.scheduleWithFixedDelay(this::renewOrReport, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * The lease, while the last confirmed recording covers this moment of the monotonic clock: one
     * volatile read and one {@code nanoTime}.
     */
    @Override
    public WorkerLease lease() {
        Held current = held();
        if (nanoTime.getAsLong() - current.confirmedUntilNanos() >= 0) {
            throw unconfirmed(current);
        }
        return current.lease();
    }

    private Held held() {
        Held current = held;
        if (current == null) {
            throw new WorkerIdUnavailableException("No worker id is held (state " + state.get()
                    + (state.get() == State.STARTED ? ", registering again" : "") + ")");
        }
        return current;
    }

    /** Past the confirmed window: refused, logged once, and a renewal asked for now. */
    private WorkerIdUnavailableException unconfirmed(Held current) {
        long overMillis = TimeUnit.NANOSECONDS.toMillis(nanoTime.getAsLong() - current.confirmedUntilNanos());
        int workerId = current.lease().workerId();
        if (unconfirmedLogged.compareAndSet(false, true)) {
            log.warn("Worker id {}: the registry has not confirmed the lease for {} ms past its window of {} ms "
                    + "(this process was paused or the registry is slow or unreachable); snowflake IDs are refused "
                    + "until a renewal is confirmed, since another process may hold the id by now", workerId,
                    overMillis, TimeUnit.NANOSECONDS.toMillis(confirmedWindowNanos));
        }
        reservationLapsed();
        return new WorkerIdUnavailableException("The lease of worker id " + workerId + " has not been confirmed by "
                + "its registry for " + overMillis + " ms past its window (" + Durations.format(
                        Duration.ofNanos(confirmedWindowNanos)) + ", 2 x leaf.snowflake.report-interval); IDs resume "
                + "once a renewal is confirmed");
    }

    /**
     * Moves the reservation to {@code now + 2 x reportInterval}, never backwards, and publishes it
     * only after the sink recorded it. Synchronized: a slower renewal must not record a smaller
     * value after a faster one published a larger one.
     */
    public synchronized void renew() {
        WorkerLease current = held().lease();
        long sentNanos = nanoTime.getAsLong();
        long wanted = clock.millis() + 2 * reportInterval.toMillis();
        long until = Math.max(current.reservedUntilMillis(), wanted);
        long now = clock.millis();
        registration.sink().record(current.workerId(), until);
        lastRecordedMillis = now;
        held = new Held(current.extendedTo(until), sentNanos + confirmedWindowNanos);
        if (unconfirmedLogged.compareAndSet(true, false)) {
            log.info("Worker id {}: the registry confirmed the lease again, until {}; snowflake IDs resume",
                    current.workerId(), until);
        }
    }

    /**
     * Queues a renewal now. While the clock was stepped back, renewals could not move the
     * reservation (it was already ahead), so when the clock is set right it may be past the
     * reservation until the next tick; this closes that gap within one write instead.
     */
    @Override
    public void reservationLapsed() {
        ScheduledExecutorService running = renewer;
        long now = clock.millis();
        if (running == null || state.get() != State.STARTED
                || Math.abs(now - lastUrgentRenewalMillis) < urgentRenewalSpacingMillis()
                || !urgentRenewalQueued.compareAndSet(false, true)) {
            return;
        }
        lastUrgentRenewalMillis = now;
        try {
            running.execute(() -> {
                urgentRenewalQueued.set(false);
                renewOrReport();
            });
        } catch (RejectedExecutionException e) {
            urgentRenewalQueued.set(false); // stopping: nothing to renew
        }
    }

    private long urgentRenewalSpacingMillis() {
        return Math.min(500, reportInterval.toMillis() / 3);
    }

    @Override
    public long lastRecordedMillis() {
        return lastRecordedMillis;
    }

    /** The id held, or -1 while none is. */
    public int workerId() {
        Held current = held;
        return current == null ? -1 : current.lease().workerId();
    }

    @Override
    public void release(long lastIssuedMillis) {
        Held current = held;
        WorkerLease last = current == null ? null : current.lease();
        if (!stop() || last == null) {
            return;
        }
        // IDs up to lastIssuedMillis were issued, and the previous holder's before validFrom: the
        // next holder must start after both, and need not wait for more.
        long until = Math.min(last.reservedUntilMillis(), Math.max(last.validFromMillis(), lastIssuedMillis + 1));
        awaitClockAt(until, last.workerId());
        try {
            registration.sink().release(last.workerId(), until);
            log.info("Worker id {} released; reservation recorded as {}, just past the last ID issued",
                    last.workerId(), until);
        } catch (RuntimeException e) {
            log.warn("Worker id {} released, but recording its final reservation failed ({}); the recorded one "
                    + "stays, so the next start may wait until {}", last.workerId(), e.toString(),
                    last.reservedUntilMillis());
        }
    }

    /**
     * Waits, at most {@value #MAX_RELEASE_WAIT_MILLIS} ms, until the final reservation is not
     * ahead of the clock: a holder that refuses to start on a recorded time later than its clock
     * (Meituan Leaf on a {@code zk_normal} node) must accept it right after this stop. It is just
     * past the last ID, so it is ahead only when the last ID carries this very millisecond (a
     * wait of 1 ms), or when the clock was set back after issuing: then it is not lowered, since
     * a lower time would let the next holder, which may issue at that time, repeat IDs; that
     * holder waits (or refuses) until its clock passes it.
     */
    private void awaitClockAt(long until, int workerId) {
        long ahead = until - clock.millis();
        if (ahead > 0 && ahead <= MAX_RELEASE_WAIT_MILLIS) {
            try {
                sleeper.sleepMillis(ahead);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // stopping anyway: recording a time 1 ms ahead is still safe
            }
            ahead = until - clock.millis();
        }
        if (ahead > 0) {
            log.warn("Worker id {}: the final reservation {} is {} ms ahead of the clock, because IDs were issued at "
                    + "later times (the clock was set back); it is kept, so a restart of this worker id, this server "
                    + "or Meituan Leaf, waits or refuses until the clock passes it", workerId, until, ahead);
        }
    }

    @Override
    public void close() {
        Held current = held;
        WorkerLease last = current == null ? null : current.lease();
        if (stop() && last != null) {
            log.info("Worker id {} closed; its reservation until {} stays recorded", last.workerId(),
                    last.reservedUntilMillis());
        }
    }

    /** Registers, waits until the clock is past the recorded reservation, records a first one. */
    private void acquire() {
        Registration acquired = registry.register();
        awaitClockPast(acquired);
        registration = acquired;
        WorkerLease first = new WorkerLease(acquired.workerId(), acquired.recordedReservationMillis(),
                acquired.recordedReservationMillis());
        long sentNanos = nanoTime.getAsLong();
        long until = Math.max(first.reservedUntilMillis(), clock.millis() + 2 * reportInterval.toMillis());
        try {
            acquired.sink().record(acquired.workerId(), until);
        } catch (WorkerIdUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new WorkerIdUnavailableException("Could not record the first time reservation of worker id "
                    + acquired.workerId() + ": " + e.getMessage(), e);
        }
        lastRecordedMillis = clock.millis();
        held = new Held(first.extendedTo(until), sentNanos + confirmedWindowNanos);
        unconfirmedLogged.set(false);
        log.info("Worker id {} held; reservation until {} renewed every {} ms", acquired.workerId(), until,
                reportInterval.toMillis());
    }

    /** Ends the lease and the renewals; false when it was not started or is already stopped. */
    private boolean stop() {
        if (!state.compareAndSet(State.STARTED, State.CLOSED)) {
            state.set(State.CLOSED);
            return false;
        }
        held = null;
        ScheduledExecutorService running;
        synchronized (this) {
            running = renewer;
        }
        if (running == null) {
            return true; // closed while start() waited; start() sees CLOSED and gives up
        }
        running.shutdownNow();
        try {
            if (!running.awaitTermination(reportInterval.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Worker id renewer did not stop within {} ms", reportInterval.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }

    private void renewOrReport() {
        if (state.get() != State.STARTED) {
            return;
        }
        if (held == null) {
            registerAgain();
            return;
        }
        try {
            renew();
            if (renewalFailing.compareAndSet(true, false)) {
                log.info("Worker id {}: the time reservation is recorded again, until {}", workerId(),
                        held.lease().reservedUntilMillis());
            }
        } catch (WorkerIdLostException e) {
            held = null;
            renewalFailing.set(false);
            log.error("Worker id lost: {}. Snowflake IDs stop now; registering for a new worker id", e.getMessage());
        } catch (RuntimeException e) {
            Held current = held;
            long until = current == null ? 0 : current.lease().reservedUntilMillis();
            if (renewalFailing.compareAndSet(false, true)) {
                log.error("Could not record the time reservation of worker id {}: {}. Snowflake IDs stop at {} "
                        + "unless a later renewal succeeds (retried every {} ms, logged again when it does); check "
                        + "the cache file's disk and the registry", workerId(), e.toString(), until,
                        reportInterval.toMillis());
            } else {
                log.debug("Renewal of worker id {} failed again: {}", workerId(), e.toString());
            }
        }
    }

    private void registerAgain() {
        try {
            acquire();
        } catch (RuntimeException e) {
            log.error("Registering for a new worker id failed: {}. Snowflake IDs stay stopped; retrying in {} ms",
                    e.getMessage(), reportInterval.toMillis());
        }
    }

    private void awaitClockPast(Registration acquired) {
        long recorded = acquired.recordedReservationMillis();
        long waited = 0;
        long now = clock.millis();
        while (now < recorded) {
            long ahead = recorded - now;
            if (waited + ahead > maxStartWait.toMillis()) {
                throw new ReservationAheadOfClockException(acquired.workerId(), recorded, now, maxStartWait);
            }
            log.info("Worker id {}: waiting {} ms for the clock to pass the recorded reservation {}",
                    acquired.workerId(), ahead, recorded);
            try {
                sleeper.sleepMillis(ahead);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LeafInterruptedException("the clock to pass the recorded reservation", e);
            }
            waited += ahead;
            now = clock.millis();
        }
    }
}
