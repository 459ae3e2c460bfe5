package org.leafid.core.worker;

import java.util.Optional;
import org.leafid.core.worker.ReservationFile.Recorded;

/**
 * The reservation a registry-backed instance honours at start: the later of its cache file's and
 * the registry's when both are of the worker id the registry gives, since the cache may be ahead
 * (written first, and alone while the registry was down) or behind (a restored older file);
 * otherwise the registry's, because IDs of another worker id cannot collide with this one's.
 *
 * @param cacheOverruled whether the cache held another worker id, which the operator should hear of
 */
public record StartReservation(long reservedUntilMillis, boolean cacheOverruled) {

    public static StartReservation of(Optional<Recorded> cached, int workerId, long registryReservedUntilMillis) {
        if (cached.isEmpty()) {
            return new StartReservation(registryReservedUntilMillis, false);
        }
        if (cached.get().workerId() != workerId) {
            return new StartReservation(registryReservedUntilMillis, true);
        }
        return new StartReservation(Math.max(registryReservedUntilMillis, cached.get().reservedUntilMillis()), false);
    }
}
