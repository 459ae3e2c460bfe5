package org.leafid.core.worker;

import java.util.concurrent.atomic.AtomicBoolean;
import org.leafid.core.worker.RegistryWriter.Failure;
import org.slf4j.Logger;

/**
 * Records a reservation in the cache file first, then in the shared registry (the {@code mysql}
 * and {@code zk_normal} modes), both before it returns: a reservation counts only once the
 * registry has confirmed it. The cache binds this machine's next start to the reservation
 * whatever the registry keeps; the registry is what tells another process of the same address
 * that this one still holds the id, so a reservation it has not confirmed is not used. While the
 * registry cannot be written, renewals fail, and the holder refuses IDs once its last confirmed
 * renewal no longer covers the moment (a process paused or cut off that long may have lost the
 * id). An outage is logged once, and once more when the registry is written again; the failures
 * in between at DEBUG.
 */
public final class WriteThroughSink implements ReservationSink {

    private final ReservationFile cache;
    private final RegistryWriter registry;
    private final Logger log;
    /** Cache and registry writes one at a time: a release must not be overtaken by a renewal. */
    private final Object writeLock = new Object();
    /** True while registry writes fail, so that an outage is logged once rather than at every renewal. */
    private final AtomicBoolean behind = new AtomicBoolean();

    /** @param log the registry's logger, so that its lines keep the registry's name */
    public WriteThroughSink(ReservationFile cache, RegistryWriter registry, Logger log) {
        this.cache = cache;
        this.registry = registry;
        this.log = log;
    }

    /**
     * Writes the cache, then the registry.
     *
     * @throws WorkerIdLostException when the registry says the id is no longer this process's
     * @throws WorkerIdUnavailableException when the registry could not confirm the reservation
     */
    @Override
    public void record(int workerId, long reservedUntilMillis) {
        synchronized (writeLock) {
            cache.record(workerId, reservedUntilMillis); // throws when it fails
            writeRegistry(workerId, reservedUntilMillis, false);
        }
    }

    /**
     * The final reservation: the cache, then the registry.
     *
     * @throws WorkerIdLostException when the registry says the id is no longer this process's
     */
    @Override
    public void release(int workerId, long finalReservationMillis) {
        synchronized (writeLock) {
            cache.record(workerId, finalReservationMillis);
            writeRegistry(workerId, finalReservationMillis, true);
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
            throw new WorkerIdUnavailableException("Interrupted while writing the reservation of worker id "
                    + workerId + " (stopping); the cache file " + cache.path() + " holds it", e);
        } catch (Exception e) {
            Failure failure = registry.describe(e, workerId, reservedUntilMillis);
            failed(failure);
            throw new WorkerIdUnavailableException(failure.message(), e);
        }
        if (!written) {
            throw new WorkerIdUnavailableException("The registry left the reservation of worker id " + workerId
                    + " unconfirmed (see the line above); snowflake IDs stop when the last confirmed one runs out");
        }
        if (behind.compareAndSet(true, false)) {
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
