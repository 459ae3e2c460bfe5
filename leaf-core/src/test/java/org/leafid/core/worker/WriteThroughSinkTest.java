package org.leafid.core.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.worker.RegistryWriter.Failure;
import org.leafid.core.worker.ReservationFile.Recorded;
import org.slf4j.event.Level;

@Timeout(60)
class WriteThroughSinkTest {

    private static final int WORKER_ID = 5;

    @TempDir
    Path dir;

    private final FakeRegistry registry = new FakeRegistry();
    private final RecordingLogger log = new RecordingLogger();
    private final List<ExecutorService> executors = new ArrayList<>();

    @AfterEach
    void stopExecutors() {
        executors.forEach(ExecutorService::shutdownNow);
    }

    @Test
    void theCacheIsWrittenBeforeTheRegistryAndBothBeforeTheRecordReturns() {
        List<Optional<Recorded>> cacheSeenByRegistry = new ArrayList<>();
        registry.behaviour = write -> {
            cacheSeenByRegistry.add(cache().read());
            return true;
        };

        sink().record(WORKER_ID, 1_000);

        assertThat(cacheSeenByRegistry).containsExactly(Optional.of(new Recorded(WORKER_ID, 1_000)));
        assertThat(registry.writes).containsExactly(new Write(WORKER_ID, 1_000, false));
    }

    @Test
    void aCacheThatCannotBeWrittenFailsTheRecordAndLeavesTheRegistryAlone() throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        ReservationFile cache = new ReservationFile(notADirectory.resolve("workerID.properties"));
        WriteThroughSink sink = new WriteThroughSink(cache, registry, log);

        assertThatThrownBy(() -> sink.record(WORKER_ID, 1_000)).isInstanceOf(UncheckedIOException.class);
        assertThatThrownBy(() -> sink.release(WORKER_ID, 900)).isInstanceOf(UncheckedIOException.class);
        assertThat(registry.calls).hasValue(0);
    }

    @Test
    void aRegistryOutageFailsEveryRecordLoggedOnceAndOnceMoreWhenTheRegistryIsWrittenAgain() {
        AtomicBoolean down = new AtomicBoolean(true);
        registry.behaviour = write -> {
            if (down.get()) {
                throw new IOException("connection refused");
            }
            return true;
        };
        WriteThroughSink sink = sink();

        for (long until = 1_000; until < 6_000; until += 1_000) {
            long reservation = until;
            assertThatThrownBy(() -> sink.record(WORKER_ID, reservation))
                    .isInstanceOf(WorkerIdUnavailableException.class)
                    .hasMessage("unreachable (java.io.IOException: connection refused), worker id 5 until " + until);
        }
        down.set(false);
        sink.record(WORKER_ID, 6_000);
        sink.record(WORKER_ID, 7_000);

        assertThat(log.at(Level.WARN)).extracting(RecordingLogger.Line::message)
                .containsExactly("unreachable (java.io.IOException: connection refused), worker id 5 until 1000");
        assertThat(log.at(Level.DEBUG)).hasSize(4);
        assertThat(log.at(Level.INFO)).extracting(RecordingLogger.Line::message)
                .containsExactly("written again, worker id 5");
        assertThat(log.at(Level.ERROR)).isEmpty();
        assertThat(registry.writes).containsExactly(new Write(WORKER_ID, 6_000, false),
                new Write(WORKER_ID, 7_000, false));
        // The cache binds the next start on this machine even to reservations the registry never confirmed.
        assertThat(cache().read()).hasValue(new Recorded(WORKER_ID, 7_000));
    }

    @Test
    void aFailureWaitingWillNotHealIsLoggedAtError() {
        registry.behaviour = write -> {
            throw new IllegalStateException("no such table");
        };

        assertThatThrownBy(() -> sink().record(WORKER_ID, 1_000)).isInstanceOf(WorkerIdUnavailableException.class);

        assertThat(log.at(Level.ERROR)).extracting(RecordingLogger.Line::message)
                .containsExactly("misconfigured (no such table)");
    }

    @Test
    void aWriteTheRegistryLeftAloneOnPurposeIsNotAConfirmation() {
        registry.behaviour = write -> false;

        assertThatThrownBy(() -> sink().record(WORKER_ID, 1_000)).isInstanceOf(WorkerIdUnavailableException.class)
                .hasMessageContaining("unconfirmed");
    }

    @Test
    void aLostWorkerIdFailsTheRecordThatFoundIt() {
        registry.behaviour = write -> {
            throw new WorkerIdLostException("row taken by another instance");
        };

        assertThatThrownBy(() -> sink().record(WORKER_ID, 1_000)).isInstanceOf(WorkerIdLostException.class)
                .hasMessage("row taken by another instance");
        assertThat(log.lines).isEmpty();
    }

    @Test
    void aLostWorkerIdFoundByTheReleaseIsThrownByIt() {
        registry.behaviour = write -> {
            throw new WorkerIdLostException("row taken by another instance");
        };

        assertThatThrownBy(() -> sink().release(WORKER_ID, 1_000)).isInstanceOf(WorkerIdLostException.class);
        assertThat(cache().read()).hasValue(new Recorded(WORKER_ID, 1_000));
    }

    @Test
    void anInterruptedWriteRestoresTheInterruptFlagAndIsNoConfirmation() {
        registry.behaviour = write -> {
            throw new InterruptedException();
        };

        assertThatThrownBy(() -> sink().release(WORKER_ID, 1_000)).isInstanceOf(WorkerIdUnavailableException.class);

        assertThat(Thread.interrupted()).isTrue(); // clears it again for the next test
        assertThat(log.at(Level.WARN)).isEmpty();
        assertThat(cache().read()).hasValue(new Recorded(WORKER_ID, 1_000));
    }

    @Test
    void concurrentRecordsThenTheReleaseLeaveTheFinalReservationInCacheAndRegistry() throws Exception {
        int threads = 8;
        int recordsPerThread = 300;
        AtomicLong reservation = new AtomicLong(1_000);
        WriteThroughSink sink = sink();
        ExecutorService renewers = executor(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(renewers.submit(() -> {
                go.await();
                for (int i = 0; i < recordsPerThread; i++) {
                    sink.record(WORKER_ID, reservation.incrementAndGet());
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> renewer : done) {
            renewer.get(30, TimeUnit.SECONDS); // throws if any record() threw
        }
        long finalReservation = reservation.get() - 100; // just past the last ID, below the reservation

        sink.release(WORKER_ID, finalReservation);

        assertThat(cache().read()).hasValue(new Recorded(WORKER_ID, finalReservation));
        assertThat(registry.writes.get(registry.writes.size() - 1))
                .isEqualTo(new Write(WORKER_ID, finalReservation, true));
        assertThat(registry.writes).filteredOn(Write::finalWrite).hasSize(1);
        assertThat(registry.overlapping).hasValue(0);
        assertThat(registry.writes).hasSize(threads * recordsPerThread + 1);
        assertThat(log.lines).isEmpty();
    }

    private ReservationFile cache() {
        return new ReservationFile(dir.resolve("workerID.properties"));
    }

    private WriteThroughSink sink() {
        return new WriteThroughSink(cache(), registry, log);
    }

    private ExecutorService executor(int threads) {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        executors.add(executor);
        return executor;
    }

    record Write(int workerId, long until, boolean finalWrite) {}

    @FunctionalInterface
    interface Behaviour {
        boolean apply(Write write) throws Exception;
    }

    /** Our own registry interface, faked: records the writes that succeeded and whether any overlapped. */
    private static final class FakeRegistry implements RegistryWriter {

        final List<Write> writes = new CopyOnWriteArrayList<>();
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger overlapping = new AtomicInteger();
        private final AtomicBoolean inWrite = new AtomicBoolean();
        volatile Behaviour behaviour = write -> true;

        @Override
        public boolean write(int workerId, long reservedUntilMillis, boolean finalWrite) throws Exception {
            calls.incrementAndGet();
            if (!inWrite.compareAndSet(false, true)) {
                overlapping.incrementAndGet();
            }
            try {
                Write write = new Write(workerId, reservedUntilMillis, finalWrite);
                boolean written = behaviour.apply(write);
                if (written) {
                    writes.add(write);
                }
                return written;
            } finally {
                inWrite.set(false);
            }
        }

        @Override
        public Failure describe(Exception failure, int workerId, long reservedUntilMillis) {
            if (failure instanceof IllegalStateException) {
                return Failure.error("misconfigured (" + failure.getMessage() + ")");
            }
            return Failure.warning("unreachable (" + failure + "), worker id " + workerId + " until "
                    + reservedUntilMillis);
        }

        @Override
        public String recovered(int workerId) {
            return "written again, worker id " + workerId;
        }
    }
}
