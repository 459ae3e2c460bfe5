package org.leafid.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.leafid.testing.FakeClock;
import org.leafid.core.worker.ReservationSink;
import org.leafid.core.worker.ReservingWorkerIdHolder;

/**
 * Meituan Leaf's known flaw, fixed here: a restart with the clock stepped back must not repeat IDs. One worker id,
 * two runs, the reservation the first run recorded handed to the second, as the cache file or
 * registry node would.
 */
class RestartWithClockSteppedBackTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final int WORKER_ID = 42;
    private static final Duration MAX_START_WAIT = Duration.ofSeconds(5);

    private final List<ReservingWorkerIdHolder> holders = new ArrayList<>();

    @AfterEach
    void closeHolders() {
        holders.forEach(ReservingWorkerIdHolder::close);
    }

    @Test
    void restartWithClockSteppedBackIssuesNoRepeatedId() {
        Duration interval = Duration.ofSeconds(3);
        // A restart right after a renewal finds the reservation up to 2 intervals + the step back ahead.
        Duration startWait = Duration.ofSeconds(10);
        LatestReservationSink registry = new LatestReservationSink();

        // 1. First run: 2.5 s of IDs, renewed every second as the background task would.
        FakeClock firstClock = new FakeClock(T0);
        ReservingWorkerIdHolder first = new ReservingWorkerIdHolder(WORKER_ID, registry.recorded(WORKER_ID),
                registry, firstClock, firstClock, interval, startWait);
        holders.add(first);
        first.start();
        SnowflakeGenerator firstGenerator = new SnowflakeGenerator(SnowflakeLayout.leafDefault(), first,
                firstClock, firstClock, new Random(5), Duration.ofMillis(5));
        long[] before = new long[2_500 * 10];
        int issued = 0;
        for (int ms = 0; ms < 2_500; ms++) {
            if (ms > 0 && ms % 1_000 == 0) {
                first.renew();
            }
            for (int i = 0; i < 10; i++) {
                before[issued++] = firstGenerator.nextId();
            }
            firstClock.advance(1);
        }
        long lastIssuedAt = firstClock.millis() - 1;
        first.close(); // stops its renewal thread; a crash would leave the same record behind

        // 2. Restart with the clock stepped back 2 s behind the last ID issued.
        FakeClock secondClock = new FakeClock(lastIssuedAt - 2_000);
        long recorded = registry.recorded(WORKER_ID);
        assertThat(recorded).isGreaterThan(lastIssuedAt);
        ReservingWorkerIdHolder second = new ReservingWorkerIdHolder(WORKER_ID, recorded, registry, secondClock,
                secondClock, interval, startWait);
        holders.add(second);
        second.start();
        SnowflakeGenerator secondGenerator = new SnowflakeGenerator(SnowflakeLayout.leafDefault(), second,
                secondClock, secondClock, new Random(5), Duration.ofMillis(5));

        // 3. The start waited until past the reservation, so every new ID is above every old one.
        assertThat(secondClock.sleptMillis()).isEqualTo(recorded - (lastIssuedAt - 2_000));
        long maxBefore = Arrays.stream(before).max().orElseThrow();
        long firstAfter = secondGenerator.nextId();
        assertThat(firstAfter).isGreaterThan(maxBefore);
        assertThat(SnowflakeLayout.leafDefault().decode(firstAfter).timestampMillis()).isGreaterThan(lastIssuedAt);
        for (int ms = 0; ms < 1_000; ms++) {
            for (int i = 0; i < 10; i++) {
                assertThat(secondGenerator.nextId()).isGreaterThan(maxBefore);
            }
            secondClock.advance(1);
        }
    }

    @Test
    void orderlyRestartWithClockSteppedBackWaitsOnlyPastTheLastId() {
        Duration interval = Duration.ofSeconds(3);
        LatestReservationSink registry = new LatestReservationSink();
        FakeClock firstClock = new FakeClock(T0);
        ReservingWorkerIdHolder first = new ReservingWorkerIdHolder(WORKER_ID, 0, registry, firstClock,
                firstClock, interval, MAX_START_WAIT);
        holders.add(first);
        first.start();
        SnowflakeGenerator firstGenerator = new SnowflakeGenerator(SnowflakeLayout.leafDefault(), first,
                firstClock, firstClock, new Random(5), Duration.ofMillis(5));
        long maxBefore = 0;
        for (int ms = 0; ms < 1_000; ms++) {
            maxBefore = Math.max(maxBefore, firstGenerator.nextId());
            firstClock.advance(1);
        }
        long lastIssuedAt = T0 + 999;
        firstGenerator.close();

        // Stepped back 2 s: within the default 5 s start wait once the reservation was shortened.
        FakeClock secondClock = new FakeClock(lastIssuedAt - 2_000);
        ReservingWorkerIdHolder second = new ReservingWorkerIdHolder(WORKER_ID, registry.recorded(WORKER_ID),
                registry, secondClock, secondClock, interval, MAX_START_WAIT);
        holders.add(second);
        second.start();
        SnowflakeGenerator secondGenerator = new SnowflakeGenerator(SnowflakeLayout.leafDefault(), second,
                secondClock, secondClock, new Random(5), Duration.ofMillis(5));

        assertThat(secondClock.sleptMillis()).isEqualTo(2_001);
        long firstAfter = secondGenerator.nextId();
        assertThat(firstAfter).isGreaterThan(maxBefore);
        assertThat(SnowflakeLayout.leafDefault().decode(firstAfter).timestampMillis()).isEqualTo(lastIssuedAt + 1);
    }

    /** Keeps the latest reservation per worker id, as a cache file or registry node does. */
    static final class LatestReservationSink implements ReservationSink {
        final Map<Integer, Long> latest = new ConcurrentHashMap<>();

        @Override
        public void record(int workerId, long reservedUntilMillis) {
            latest.put(workerId, reservedUntilMillis);
        }

        long recorded(int workerId) {
            return latest.getOrDefault(workerId, 0L);
        }
    }
}
