package org.leafid.core.worker;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.leafid.core.worker.RegistryWriter.Failure;
import org.slf4j.Logger;

/**
 * Records a reservation in the cache file first, then in a shared registry behind it (the
 * {@code mysql} and {@code zk_normal} modes). The cache must be written: it alone keeps a restart
 * on this machine safe. The registry is best effort, because the worker id is this instance's for
 * good: while the registry is down, IDs go on being issued on the cached reservation, and the
 * registry catches up at the next renewal that reaches it.
 *
 * <p>Registry writes of renewals run on {@code registryWriter}, never on the renewing thread: a
 * partitioned registry can block a write for seconds, and a renewal held that long would let the
 * reservation run out and stop issuing. An outage is logged once, and once more when the
 * registry is written again; the failures in between at DEBUG.
 */
public final class WriteBehindSink implements ReservationSink {

    private final ReservationFile cache;
    private final RegistryWriter registry;
    private final Executor registryWriter;
    private final Logger log;
    /** Cache writes one at a time: concurrent writes of one file would race on its temp file. */
    private final Object cacheLock = new Object();
    /** True while a renewal's registry write is queued or running. */
    private final AtomicBoolean writing = new AtomicBoolean();
    /** Registry writes one at a time, and none after the final one; guards {@code released}. */
    private final Object registryLock = new Object();
    private boolean released;
    /** True while registry writes fail, so that an outage is logged once rather than at every renewal. */
    private final AtomicBoolean behind;
    /** Set when a registry write found the worker id given to another instance. */
    private volatile WorkerIdLostException lost;

    /**
     * @param registryWriter runs the registry writes of renewals; {@code Runnable::run} writes in
     *     the renewing thread
     * @param log the registry's logger, so that its lines keep the registry's name
     * @param outageLogged whether the registry is already known to be unreachable and the
     *     operator was told (a start from the cache file): the next failure is not logged again
     */
    public WriteBehindSink(ReservationFile cache, RegistryWriter registry, Executor registryWriter, Logger log,
            boolean outageLogged) {
        this.cache = cache;
        this.registry = registry;
        this.registryWriter = registryWriter;
        this.log = log;
        this.behind = new AtomicBoolean(outageLogged);
    }

    /**
     * 1. Fails at once when a registry write found the id lost. 2. Writes the cache; when that
     * throws, the reservation is not used. 3. Hands the registry write over, unless one is still
     * queued or running: then the registry is left to the next renewal rather than queueing
     * writes behind a stall.
     */
    @Override
    public void record(int workerId, long reservedUntilMillis) {
        throwIfLost();
        writeCache(workerId, reservedUntilMillis);
        if (writing.compareAndSet(false, true)) {
            try {
                registryWriter.execute(() -> {
                    try {
                        writeRenewal(workerId, reservedUntilMillis);
                    } catch (WorkerIdLostException e) {
                        lost = e;
                    } finally {
                        writing.set(false);
                    }
                });
            } catch (RejectedExecutionException e) {
                writing.set(false); // shutting down: the cache file holds the reservation
            }
        }
        throwIfLost(); // a write in this thread (Runnable::run) may have found the id lost
    }

    private void throwIfLost() {
        WorkerIdLostException failure = lost;
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * A renewal still queued when the id is released must not land after the final reservation:
     * it would put a time up to 2 x report-interval ahead of the clock back into the registry, and
     * the next start (or Meituan Leaf on a zk node) would wait until the clock passes it.
     */
    private void writeRenewal(int workerId, long reservedUntilMillis) {
        synchronized (registryLock) {
            if (!released) {
                writeRegistry(workerId, reservedUntilMillis, false);
            }
        }
    }

    /**
     * The final reservation: the cache, then the registry in this thread, after any renewal write
     * that is running and instead of any that is queued.
     *
     * @throws WorkerIdLostException when the registry says the id is no longer this instance's
     */
    @Override
    public void release(int workerId, long finalReservationMillis) {
        writeCache(workerId, finalReservationMillis);
        synchronized (registryLock) {
            released = true;
            writeRegistry(workerId, finalReservationMillis, true);
        }
    }

    private void writeCache(int workerId, long reservedUntilMillis) {
        synchronized (cacheLock) {
            cache.record(workerId, reservedUntilMillis); // throws when it fails
        }
    }

    private void writeRegistry(int workerId, long reservedUntilMillis, boolean finalWrite) {
        boolean written;
        try {
            written = registry.write(workerId, reservedUntilMillis, finalWrite);
        } catch (WorkerIdLostException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.debug("Interrupted while writing the reservation of worker id {} (shutting down); the cache file {} "
                    + "holds it", workerId, cache.path());
            return;
        } catch (Exception e) {
            failed(registry.describe(e, workerId, reservedUntilMillis));
            return;
        }
        if (written && behind.compareAndSet(true, false)) {
            log.info(registry.recovered(workerId));
        }
    }

    private void failed(Failure failure) {
        if (!behind.compareAndSet(false, true)) {
            log.debug(failure.message());
        } else if (failure.error()) {
            log.error(failure.message());
        } else {
            log.warn(failure.message());
        }
    }
}
