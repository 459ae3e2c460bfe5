package org.leafid.core.snowflake;

import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.Sleeper;
import org.leafid.core.WorkerIdUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a worker id that is already decided (by configuration or a registry) and keeps its time
 * reservation ahead of the clock: IDs may be issued at time t only while t is before the
 * recorded reserved-until time, so a restart, even with the clock stepped back, never reuses a
 * timestamp it may have issued.
 *
 * <p>Lifecycle {@code LATENT -> STARTED -> CLOSED}; the constructor does no I/O.
 */
public final class ReservingWorkerIdHolder implements WorkerIdHolder {

    private static final Logger log = LoggerFactory.getLogger(ReservingWorkerIdHolder.class);

    private enum State { LATENT, STARTED, CLOSED }

    private final int workerId;
    private final long recordedReservation;
    private final ReservationSink sink;
    private final InstantSource clock;
    private final Sleeper sleeper;
    private final Duration reportInterval;
    private final Duration maxStartWait;
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private volatile WorkerLease lease;
    private ScheduledExecutorService renewer;

    /**
     * @param recordedReservation the reserved-until time found for this id (0 when none): IDs
     *     are issued only at or after it
     */
    public ReservingWorkerIdHolder(int workerId, long recordedReservation, ReservationSink sink,
            InstantSource clock, Sleeper sleeper, Duration reportInterval, Duration maxStartWait) {
        if (reportInterval.isNegative() || reportInterval.isZero()) {
            throw new IllegalArgumentException("reportInterval must be positive: " + reportInterval);
        }
        if (maxStartWait.isNegative()) {
            throw new IllegalArgumentException("maxStartWait must not be negative: " + maxStartWait);
        }
        this.workerId = workerId;
        this.recordedReservation = recordedReservation;
        this.sink = sink;
        this.clock = clock;
        this.sleeper = sleeper;
        this.reportInterval = reportInterval;
        this.maxStartWait = maxStartWait;
        if (workerId < 0 || workerId > SnowflakeLayout.MAX_WORKER_ID) {
            throw new IllegalArgumentException("worker id must be in 0.." + SnowflakeLayout.MAX_WORKER_ID
                    + ": " + workerId);
        }
    }

    @Override
    public void start() {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("worker id holder already started or closed: " + state.get());
        }
        awaitClockPastRecordedReservation();
        lease = new WorkerLease(workerId, recordedReservation, recordedReservation);
        try {
            renew();
        } catch (RuntimeException e) {
            // Nothing was issued yet, so failing the start loses nothing.
            lease = null;
            state.set(State.CLOSED);
            throw new WorkerIdUnavailableException("Could not record the first time reservation of worker id "
                    + workerId + ": " + e.getMessage(), e);
        }
        log.info("Worker id {} held; reservation until {} renewed every {} ms", workerId,
                lease.reservedUntilMillis(), reportInterval.toMillis());
        renewer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "leaf-worker-id-renewer");
            thread.setDaemon(true);
            return thread;
        });
        long periodMillis = reportInterval.toMillis();
        renewer.scheduleWithFixedDelay(this::renewOrReport, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public WorkerLease lease() {
        WorkerLease current = lease;
        if (current == null) {
            throw new WorkerIdUnavailableException("No worker id is held (state " + state.get() + ")");
        }
        return current;
    }

    /**
     * Moves the reservation to {@code now + 2 x reportInterval}, never backwards, and publishes it
     * only after the sink recorded it.
     */
    public void renew() {
        WorkerLease current = lease();
        long wanted = clock.millis() + 2 * reportInterval.toMillis();
        long until = Math.max(current.reservedUntilMillis(), wanted);
        sink.record(workerId, until);
        lease = current.extendedTo(until);
    }

    public int workerId() {
        return workerId;
    }

    @Override
    public void release(long lastIssuedMillis) {
        WorkerLease last = lease;
        if (!stop()) {
            return;
        }
        // IDs up to lastIssuedMillis were issued, and the previous run's before validFrom: the
        // next holder must start after both, and need not wait for more.
        long until = Math.max(last.validFromMillis(), lastIssuedMillis + 1);
        if (until >= last.reservedUntilMillis()) {
            return;
        }
        try {
            sink.record(workerId, until);
            log.info("Worker id {} released; reservation shortened to {}, just past the last ID issued", workerId,
                    until);
        } catch (RuntimeException e) {
            log.warn("Worker id {} released, but shortening its reservation failed ({}); it stays at {}, so the "
                    + "next start may wait until then", workerId, e.toString(), last.reservedUntilMillis());
        }
    }

    @Override
    public void close() {
        WorkerLease last = lease;
        if (stop()) {
            log.info("Worker id {} released; its reservation until {} stays recorded", workerId,
                    last.reservedUntilMillis());
        }
    }

    /** Ends the lease and the renewals; false when it was not started or is already stopped. */
    private boolean stop() {
        if (!state.compareAndSet(State.STARTED, State.CLOSED)) {
            state.set(State.CLOSED);
            return false;
        }
        lease = null;
        renewer.shutdownNow();
        try {
            if (!renewer.awaitTermination(reportInterval.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Worker id renewer did not stop within {} ms", reportInterval.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }

    private void renewOrReport() {
        try {
            renew();
        } catch (RuntimeException e) {
            WorkerLease current = lease;
            long until = current == null ? 0 : current.reservedUntilMillis();
            log.error("Could not record the time reservation of worker id {}: {}. Snowflake IDs stop at {} "
                    + "unless a later renewal succeeds; check the cache file's disk and the registry",
                    workerId, e.toString(), until);
        }
    }

    private void awaitClockPastRecordedReservation() {
        long waited = 0;
        long now = clock.millis();
        while (now < recordedReservation) {
            long ahead = recordedReservation - now;
            if (waited + ahead > maxStartWait.toMillis()) {
                state.set(State.CLOSED);
                throw new ReservationAheadOfClockException(workerId, recordedReservation, now, maxStartWait);
            }
            log.info("Worker id {}: waiting {} ms for the clock to pass the recorded reservation {}",
                    workerId, ahead, recordedReservation);
            try {
                sleeper.sleepMillis(ahead);
            } catch (InterruptedException e) {
                state.set(State.CLOSED);
                throw new LeafInterruptedException("the clock to pass the recorded reservation", e);
            }
            waited += ahead;
            now = clock.millis();
        }
    }
}
