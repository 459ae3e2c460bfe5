package org.leafid.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.worker.WorkerIdRegistry.Registration;

/**
 * The {@link WorkerIdRegistryContractTest contract} of a registry whose ids live in a backend
 * that can be unreachable (ZooKeeper, a database, Redis), plus what it does then, the same in every
 * such mode: a registration is refused saying what to do (a cached id cannot tell whether another
 * process took it meanwhile), and a reservation the backend did not confirm is not used. A mode
 * whose id is configuration ({@code local}) extends the base contract only, so no test here passes
 * without asserting.
 */
public abstract class WorkerIdRegistryOutageContractTest extends WorkerIdRegistryContractTest {

    /** @param restart what a registration of an instance that held an id before gets in this mode */
    protected WorkerIdRegistryOutageContractTest(Restart restart) {
        super(restart);
    }

    /** Makes the backend unreachable for every registry, built or to be built. */
    protected abstract void cutBackend();

    /** Undoes {@link #cutBackend()}. */
    protected abstract void restoreBackend();

    /**
     * What the error of a registration refused during an outage must name so an operator knows
     * what to do: the setting to check.
     */
    protected abstract List<String> outageErrorNames(int instance);

    @Test
    public void backendUnreachableAtStartRefusesEvenWithACacheFile() {
        Registration before = registry(0).register();
        long renewed = clock.millis() + 4_000;
        before.sink().record(before.workerId(), renewed); // then a crash: the cache holds the reservation
        cutBackend();

        assertRefusedNaming(0);
        assertRefusedNaming(1); // never registered: no cache file either
    }

    @Test
    public void aReservationTheBackendDidNotConfirmIsNotUsed() {
        Registration registration = registry(0).register();
        cutBackend();
        long renewed = clock.millis() + 60_000;

        // Not confirmed: the holder must not extend, and so stops issuing in time.
        assertThatThrownBy(() -> registration.sink().record(registration.workerId(), renewed))
                .isInstanceOf(WorkerIdUnavailableException.class);
    }

    private void assertRefusedNaming(int instance) {
        var refusal = assertThatThrownBy(() -> registry(instance).register())
                .isInstanceOf(WorkerIdUnavailableException.class);
        for (String name : outageErrorNames(instance)) {
            refusal.hasMessageContaining(name);
        }
    }
}
