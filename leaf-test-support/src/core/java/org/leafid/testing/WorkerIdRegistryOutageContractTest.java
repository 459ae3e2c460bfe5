package org.leafid.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.worker.ReservationAheadOfClockException;
import org.leafid.core.worker.ReservingWorkerIdHolder;
import org.leafid.core.worker.WorkerIdRegistry.Registration;

/**
 * The {@link WorkerIdRegistryContractTest contract} of a registry whose ids live in a backend
 * that can be unreachable (ZooKeeper, a database), plus what it does then, as its mode promises
 * ({@link Outage}). A mode whose id is configuration ({@code local}) extends the base contract
 * only, so no test here passes without asserting.
 */
public abstract class WorkerIdRegistryOutageContractTest extends WorkerIdRegistryContractTest {

    /** What a registration does while the backend cannot be reached. */
    public enum Outage {
        /** Starts from the instance's cache file; without one, fails saying what to do. */
        STARTS_FROM_CACHE,
        /** Refuses, saying what to do. */
        REFUSES
    }

    private final Outage outage;

    /**
     * @param restart what a registration of an instance that held an id before gets in this mode
     * @param outage what a registration does in this mode while the backend cannot be reached
     */
    protected WorkerIdRegistryOutageContractTest(Restart restart, Outage outage) {
        super(restart);
        this.outage = outage;
    }

    /** Makes the backend unreachable for every registry, built or to be built. */
    protected abstract void cutBackend();

    /** Undoes {@link #cutBackend()}. */
    protected abstract void restoreBackend();

    /**
     * What the error of a registration refused during an outage must name so an operator knows
     * what to do: the setting to check and, in {@link Outage#STARTS_FROM_CACHE}, the cache file
     * looked for.
     */
    protected abstract List<String> outageErrorNames(int instance);

    @Test
    public void backendUnreachableAtStartBehavesAsTheModeSays() {
        Registration before = registry(0).register();
        long renewed = clock.millis() + 4_000;
        before.sink().record(before.workerId(), renewed); // then a crash: the cache holds the reservation
        cutBackend();

        if (outage == Outage.STARTS_FROM_CACHE) {
            Registration offline = registry(0).register();
            assertThat(offline.workerId()).isEqualTo(before.workerId());
            assertThat(offline.recordedReservationMillis()).isGreaterThanOrEqualTo(renewed);
            ReservingWorkerIdHolder holder = started(0);
            assertThat(holder.workerId()).isEqualTo(before.workerId());
            assertThat(holder.lease().validFromMillis()).isGreaterThanOrEqualTo(renewed);
            assertThat(holder.lease().covers(clock.millis())).isTrue();
        } else {
            assertRefusedNaming(0);
        }
        assertRefusedNaming(1); // never registered: no cache file either
    }

    @Test
    public void backendUnreachableAtStartWithAReservationFarAheadRefusesTheStart() {
        Registration before = registry(0).register();
        before.sink().record(before.workerId(), clock.millis() + 60_000);
        cutBackend();

        // From the cache: the reservation is read and is too far ahead to wait out. Without the
        // backend and no cache (REFUSES): nothing is read, the start is refused all the same.
        assertThatThrownBy(() -> holder(0, Duration.ofSeconds(5)).start())
                .isInstanceOf(outage == Outage.STARTS_FROM_CACHE
                        ? ReservationAheadOfClockException.class : WorkerIdUnavailableException.class);
    }

    @Test
    public void reservationRecordedDuringAnOutageBindsTheNextStartOrIsRefused() {
        Registration registration = registry(0).register();
        cutBackend();
        long renewed = clock.millis() + 60_000;

        if (outage == Outage.STARTS_FROM_CACHE) {
            // Recorded in the cache file: issuing goes on, and the next start honours it.
            registration.sink().record(registration.workerId(), renewed);
            restoreBackend();
            abandon(0); // the process that recorded it stopped without a release
            Registration again = registry(0).register();
            assertThat(again.workerId()).isEqualTo(registration.workerId());
            assertThat(again.recordedReservationMillis()).isGreaterThanOrEqualTo(renewed);
        } else {
            // Not recorded anywhere: the holder must not extend, and so stops issuing in time.
            assertThatThrownBy(() -> registration.sink().record(registration.workerId(), renewed))
                    .isInstanceOf(WorkerIdUnavailableException.class);
        }
    }

    private void assertRefusedNaming(int instance) {
        var refusal = assertThatThrownBy(() -> registry(instance).register())
                .isInstanceOf(WorkerIdUnavailableException.class);
        for (String name : outageErrorNames(instance)) {
            refusal.hasMessageContaining(name);
        }
    }
}
