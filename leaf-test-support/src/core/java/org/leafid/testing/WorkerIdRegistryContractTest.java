package org.leafid.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.worker.ReservationAheadOfClockException;
import org.leafid.core.worker.ReservingWorkerIdHolder;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.worker.WorkerIdRegistry.Registration;

/**
 * What every {@link WorkerIdRegistry} must do, whatever keeps the ids: an id in 0..1023 with a
 * recorded reservation, reservations honoured by the next registration, no two instances on one
 * id, and no ID repeated after a crash. A backend's test extends this (or, when the mode has a
 * backend that can be cut, {@link WorkerIdRegistryOutageContractTest}), runs a real backend, and
 * says how to build a registry for an instance and what its mode promises ({@link Restart}). Instances are numbered
 * from 0; each test uses its own backend namespace (or instances no other test uses). Time is
 * this class's {@link #clock}: holders wait on it, never in real time. Test methods are public
 * so that subclasses in other packages inherit them.
 */
public abstract class WorkerIdRegistryContractTest {

    protected static final long START_MILLIS = 1_750_000_000_000L;
    protected static final Duration REPORT_INTERVAL = Duration.ofSeconds(3);
    private static final Duration MAX_START_WAIT = Duration.ofSeconds(10);
    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.leafDefault();

    /** What a registration of an instance that held an id before gets. */
    public enum Restart {
        /**
         * The instance's id is its own for good: a restart gets it back, after a graceful release at
         * once, after a crash once the backend noticed the crashed process is gone ({@link #abandon}).
         */
        KEEPS_ID,
        /**
         * The id is lent: a graceful release returns it to the pool, a crash leaves it taken until
         * {@link #sweepAbandoned() swept}; a freed id is lent again before an untouched one.
         */
        RELEASE_FREES_ID,
        /**
         * Every start takes an id never given before (uid-generator's disposable worker ids): no
         * restart, graceful or not, gets an earlier id back, so none needs a recorded reservation.
         */
        NEW_ID_EVERY_START
    }

    /** What a second live process of an address (same ip:port, its own token) gets while the first holds its id. */
    public enum SameAddress {
        /** Another free id: the lease is the first process's, whatever its address. */
        ANOTHER_ID,
        /** Nothing: the mode's id is the address's for good, and a live process holds it. */
        REFUSED,
        /**
         * Nothing is checked: the id is configured ({@code local}), and nothing shared could tell
         * two processes apart.
         */
        UNCHECKED
    }

    protected final FakeClock clock = new FakeClock(START_MILLIS);
    private final List<AutoCloseable> holders = new ArrayList<>();
    private final Restart restart;

    /** @param restart what a registration of an instance that held an id before gets in this mode */
    protected WorkerIdRegistryContractTest(Restart restart) {
        this.restart = restart;
    }

    /**
     * A registry of instance {@code instance} as a new process of it builds one: its own client or
     * pool (reaching the backend through what an outage test cuts), and the same cache
     * file as earlier processes of that instance.
     */
    protected abstract WorkerIdRegistry registry(int instance);

    /**
     * {@link Restart#RELEASE_FREES_ID}: returns to the pool the ids of instances that stopped
     * without releasing them; no other instance holds an id when this is called.
     */
    protected void sweepAbandoned() {
        throw new UnsupportedOperationException("ids are never swept in this mode");
    }

    /**
     * {@link Restart#KEEPS_ID}: the backend notices that the processes of {@code instance} that
     * stopped without releasing are gone, as it would in time (a ZooKeeper session that expires, a
     * lease that runs out). Until then a new process of the instance is a second live process of
     * its address. Nothing to do where the mode cannot tell processes apart.
     */
    protected void abandon(int instance) {
    }

    /** What a second live process of an address gets; {@link SameAddress#ANOTHER_ID} unless overridden. */
    protected SameAddress sameAddress() {
        return SameAddress.ANOTHER_ID;
    }

    @AfterEach
    void closeHolders() throws Exception {
        for (int i = holders.size() - 1; i >= 0; i--) {
            holders.get(i).close();
        }
    }

    @Test
    public void acquireGivesAnIdInRangeWhoseReservationCanBeRecorded() {
        Registration registration = registry(0).register();

        assertThat(registration.workerId()).isBetween(0, SnowflakeLayout.MAX_WORKER_ID);
        // A fresh id carries no reservation that would make its first start wait.
        assertThat(registration.recordedReservationMillis()).isLessThan(clock.millis());
        registration.sink().record(registration.workerId(), clock.millis() + 6_000);

        ReservingWorkerIdHolder holder = started(1);
        assertThat(holder.workerId()).isBetween(0, SnowflakeLayout.MAX_WORKER_ID);
        assertThat(holder.lease().reservedUntilMillis()).isEqualTo(clock.millis() + 2 * REPORT_INTERVAL.toMillis());
        assertThat(holder.lease().covers(clock.millis())).isTrue();
    }

    @Test
    public void reservationRecordedThroughTheSinkIsHonouredAfterARestart() {
        Registration first = registry(0).register();
        long renewed = clock.millis() + 60_000;
        first.sink().record(first.workerId(), renewed);

        if (restart == Restart.KEEPS_ID) {
            // A crash: the last recorded reservation binds the next process of the instance.
            abandon(0);
            Registration again = registry(0).register();
            assertThat(again.workerId()).isEqualTo(first.workerId());
            assertThat(again.recordedReservationMillis()).isGreaterThanOrEqualTo(renewed);
            // No process of the instance starts within the reservation: it waits or refuses, saying what to do.
            abandon(0);
            assertThatThrownBy(() -> holder(0, Duration.ofSeconds(5)).start())
                    .isInstanceOf(ReservationAheadOfClockException.class)
                    .hasMessageContaining("ahead of the clock")
                    .hasMessageContaining("fix the clock");
            // The refused start left the reservation recorded: the next one is refused as well.
            abandon(0);
            assertThat(registry(0).register().recordedReservationMillis()).isGreaterThanOrEqualTo(renewed);
        } else {
            // A crash: the id stays taken, so the next process of the instance gets another.
            Registration again = registry(0).register();
            assertThat(again.workerId()).isNotEqualTo(first.workerId());
        }
    }

    @Test
    public void gracefulReleaseRecordsTheFinalReservationAndTheNextHolderStartsFromIt() {
        Registration first = registry(0).register();
        first.sink().record(first.workerId(), clock.millis() + 60_000);
        long finalReservation = clock.millis() + 500; // lower than the renewal: just past the last ID

        first.sink().release(first.workerId(), finalReservation);

        if (restart == Restart.NEW_ID_EVERY_START) {
            Registration next = registry(0).register();
            assertThat(next.workerId()).as("a released id is never given again").isNotEqualTo(first.workerId());
            assertThat(next.recordedReservationMillis()).isLessThan(clock.millis());
            return;
        }
        // KEEPS_ID: the same instance gets its id back; RELEASE_FREES_ID: the freed id is lent again.
        Registration next = registry(restart == Restart.KEEPS_ID ? 0 : 1).register();
        assertThat(next.workerId()).isEqualTo(first.workerId());
        assertThat(next.recordedReservationMillis()).isGreaterThanOrEqualTo(finalReservation)
                .isLessThan(clock.millis() + 60_000);
    }

    @Test
    public void twoInstancesNeverShareAnId() {
        ReservingWorkerIdHolder first = started(0);
        ReservingWorkerIdHolder second = started(1);
        assertThat(first.workerId()).isNotEqualTo(second.workerId());

        if (sameAddress() == SameAddress.ANOTHER_ID) {
            // Another process of a held instance never takes the other's id either.
            Registration third = registry(0).register();
            assertThat(third.workerId()).isNotEqualTo(second.workerId()).isNotEqualTo(first.workerId());
        }
    }

    /**
     * Two live processes of one ip:port (two hosts' containers at one address): the lease is the
     * first's, so the second gets another id or is refused, the first keeps renewing, and of the
     * IDs both issue at once none repeats.
     */
    @Test
    public void aSecondLiveProcessOfAnAddressNeverTakesOverTheLease() throws Exception {
        if (sameAddress() == SameAddress.UNCHECKED) {
            return; // a configured id: two processes given one id is the operator's configuration
        }
        ReservingWorkerIdHolder first = started(0);
        SnowflakeGenerator firstIds = generator(first);
        if (sameAddress() == SameAddress.REFUSED) {
            assertThatThrownBy(() -> started(0))
                    .isInstanceOf(WorkerIdUnavailableException.class)
                    .hasMessageContaining("another live process");
            clock.advance(REPORT_INTERVAL.toMillis());
            first.renew();
            assertThat(first.lease().reservedUntilMillis()).isEqualTo(clock.millis() + 2 * REPORT_INTERVAL.toMillis());
            issue(firstIds, 5_000);
            return;
        }
        ReservingWorkerIdHolder second = started(0);
        assertThat(second.workerId()).isNotEqualTo(first.workerId());

        clock.advance(REPORT_INTERVAL.toMillis());
        first.renew(); // still its own: a renewal that found the lease another's would throw
        second.renew();
        assertThat(first.lease().reservedUntilMillis()).isEqualTo(clock.millis() + 2 * REPORT_INTERVAL.toMillis());
        assertThat(first.lease().covers(clock.millis())).isTrue();

        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<List<Long>>> issued = new ArrayList<>();
            for (SnowflakeGenerator generator : List.of(firstIds, generator(second))) {
                issued.add(threads.submit(() -> {
                    go.await();
                    List<Long> ids = new ArrayList<>();
                    for (int i = 0; i < 20_000; i++) {
                        ids.add(generator.nextId());
                        if (i % 200 == 199) {
                            clock.advance(1);
                        }
                    }
                    return ids;
                }));
            }
            go.countDown();
            Set<Long> distinct = new HashSet<>();
            int total = 0;
            for (Future<List<Long>> ids : issued) {
                List<Long> some = ids.get(60, TimeUnit.SECONDS);
                total += some.size();
                distinct.addAll(some);
            }
            assertThat(distinct).as("no ID repeated between the two processes").hasSize(total);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    public void instancesRegisteringAtOnceGetDistinctIds() throws Exception {
        int instances = 12;
        List<ReservingWorkerIdHolder> starting = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            starting.add(holder(i, MAX_START_WAIT));
        }
        ExecutorService threads = Executors.newFixedThreadPool(instances);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> workerIds = new ArrayList<>();
            for (ReservingWorkerIdHolder holder : starting) {
                workerIds.add(threads.submit(() -> {
                    go.await();
                    holder.start();
                    return holder.workerId();
                }));
            }
            go.countDown();
            Set<Integer> distinct = new HashSet<>();
            for (Future<Integer> workerId : workerIds) {
                distinct.add(workerId.get(60, TimeUnit.SECONDS));
            }
            assertThat(distinct).hasSize(instances)
                    .allSatisfy(id -> assertThat(id).isBetween(0, SnowflakeLayout.MAX_WORKER_ID));
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    public void gracefulRestartWithTheClockSteppedBackRepeatsNoId() {
        ReservingWorkerIdHolder holder = started(0);
        int workerId = holder.workerId();
        SnowflakeGenerator generator = generator(holder);
        long lastBefore = issue(generator, 5_000);
        generator.close(); // releases the id with a reservation just past the last ID
        long releasedAt = clock.millis();
        clock.stepBack(2_000);

        if (restart == Restart.NEW_ID_EVERY_START) {
            ReservingWorkerIdHolder next = started(0);
            assertThat(next.workerId()).as("a new id, so IDs at repeated times differ").isNotEqualTo(workerId);
            // No wait: nothing was ever issued with the new id.
            assertThat(next.lease().covers(clock.millis())).isTrue();
            issue(generator(next), 5_000);
            return;
        }
        ReservingWorkerIdHolder next = started(restart == Restart.KEEPS_ID ? 0 : 1);

        assertThat(next.workerId()).isEqualTo(workerId);
        long lastMillis = LAYOUT.decode(lastBefore).timestampMillis();
        // The next holder starts after the last ID and need not wait out the whole reservation;
        // its clock, 2 s behind, waited until then.
        assertThat(next.lease().validFromMillis()).isGreaterThan(lastMillis).isLessThanOrEqualTo(releasedAt + 1);
        assertThat(clock.millis()).isGreaterThanOrEqualTo(next.lease().validFromMillis());
        SnowflakeGenerator after = generator(next);
        long firstAfter = after.nextId();
        assertThat(firstAfter).isGreaterThan(lastBefore);
        assertThat(issue(after, 5_000)).isGreaterThan(firstAfter);
    }

    @Test
    public void crashThenRestartNeverIssuesAtOrBeforeTheRecordedReservation() {
        ReservingWorkerIdHolder crashed = started(0);
        int workerId = crashed.workerId();
        long lastBefore = issue(generator(crashed), 5_000);
        long recorded = crashed.lease().reservedUntilMillis();
        crashed.close(); // no release: the renewed reservation stays recorded, as after a crash
        clock.stepBack(2_000);

        ReservingWorkerIdHolder next;
        if (restart == Restart.NEW_ID_EVERY_START) {
            next = started(0);
            assertThat(next.workerId()).as("a new id after a crash as well").isNotEqualTo(workerId);
            assertThat(next.lease().covers(clock.millis())).isTrue();
            return;
        } else if (restart == Restart.KEEPS_ID) {
            abandon(0);
            next = started(0);
        } else {
            ReservingWorkerIdHolder restarted = started(0);
            assertThat(restarted.workerId()).as("a crashed holder's id is taken until swept").isNotEqualTo(workerId);
            restarted.release(clock.millis());
            sweepAbandoned();
            next = started(1);
            if (next.workerId() != workerId) {
                next = started(2); // the id the restarted holder released may be lent first
            }
        }

        assertThat(next.workerId()).isEqualTo(workerId);
        assertThat(recorded).isGreaterThan(LAYOUT.decode(lastBefore).timestampMillis());
        // Past the recorded reservation, and no later than needed: the wait is the reservation's, not more.
        assertThat(next.lease().validFromMillis()).isBetween(recorded, recorded + 1);
        assertThat(clock.millis()).isGreaterThanOrEqualTo(recorded);
        long firstAfter = generator(next).nextId();
        assertThat(firstAfter).isGreaterThan(lastBefore);
        assertThat(LAYOUT.decode(firstAfter).timestampMillis()).isGreaterThanOrEqualTo(recorded);
    }

    /** A started holder of {@code instance}, on {@link #clock}, closed after the test. */
    protected ReservingWorkerIdHolder started(int instance) {
        ReservingWorkerIdHolder holder = holder(instance, MAX_START_WAIT);
        holder.start();
        return holder;
    }

    protected ReservingWorkerIdHolder holder(int instance, Duration maxStartWait) {
        ReservingWorkerIdHolder holder = new ReservingWorkerIdHolder(registry(instance), clock, clock,
                REPORT_INTERVAL, maxStartWait);
        holders.add(holder);
        return holder;
    }

    private SnowflakeGenerator generator(ReservingWorkerIdHolder holder) {
        return new SnowflakeGenerator(LAYOUT, holder, clock, clock, new Random(7), Duration.ofMillis(5));
    }

    /** Issues {@code count} IDs, moving the clock 1 ms every 100, and returns the largest. */
    private long issue(SnowflakeGenerator generator, int count) {
        long previous = 0;
        for (int i = 0; i < count; i++) {
            long id = generator.nextId();
            assertThat(id).isGreaterThan(previous);
            previous = id;
            if (i % 100 == 99) {
                clock.advance(1);
            }
        }
        return previous;
    }
}
