package org.leafid.faulthook;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.leafid.server.problem.ProblemType;
import org.leafid.server.problem.Problems;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.context.annotation.Profile;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A clock that a test can move from outside the process. <b>For tests only</b>: this class is not
 * in the server jar. The fault suite adds it to a server process it starts with
 * {@code java -cp target/fault-hook:leaf-server.jar org.leafid.server.LeafServerApplication} and
 * {@code --spring.main.sources=org.leafid.faulthook.FaultClockConfiguration}, and it still
 * needs the Spring profile {@code fault-injection}. It lives outside {@code org.leafid.server}, so
 * the server's component scan never finds it, not even in the in-process tests.
 *
 * <p>Why: the fault suite ({@code leaf-server/src/test/java/org/leafid/server/fault/}) runs the
 * real server jar as separate processes, where no test code can replace the time source the way
 * an in-process test swaps in a fake clock. With the profile, the server's {@link InstantSource}
 * is the system clock plus an offset, and {@code POST /fault/clock?offsetMillis=N} sets the
 * offset, so a test can step the clock back (or forward) under load and watch what the
 * generators do. Only the time source moves: the server's {@code Sleeper} still sleeps real
 * time, as it would while a real clock is being corrected.
 *
 * <p>Without the profile neither the clock nor the endpoint exists: the server keeps the plain
 * system clock of {@code ClockAutoConfiguration} and {@code /fault/clock} is an unknown path.
 */
@Configuration(proxyBeanMethods = false)
@Profile(FaultClockConfiguration.PROFILE)
@Import(FaultClockConfiguration.FaultClockController.class)
public class FaultClockConfiguration {

    /** The Spring profile that turns the hook on. */
    public static final String PROFILE = "fault-injection";

    /** Wins over the server's {@code leafClock} wherever an {@link InstantSource} is injected. */
    @Bean
    @Primary
    OffsetClock faultClock() {
        return new OffsetClock(InstantSource.system());
    }

    /** The system clock shifted by an offset that may change at any time; thread-safe. */
    public static final class OffsetClock implements InstantSource {

        private final InstantSource base;
        private final AtomicLong offsetMillis = new AtomicLong();

        OffsetClock(InstantSource base) {
            this.base = base;
        }

        @Override
        public long millis() {
            return base.millis() + offsetMillis.get();
        }

        @Override
        public Instant instant() {
            return base.instant().plusMillis(offsetMillis.get());
        }

        public long offsetMillis() {
            return offsetMillis.get();
        }

        void setOffsetMillis(long offset) {
            offsetMillis.set(offset);
        }
    }

    /** {@code POST /fault/clock?offsetMillis=N}: sets the offset and answers it. */
    @RestController
    static class FaultClockController {

        private static final Logger log = LoggerFactory.getLogger(FaultClockController.class);
        /** Far enough for any test, near enough that a typo cannot leave the 41-bit range. */
        private static final long MAX_OFFSET_MILLIS = Duration.ofDays(1).toMillis();

        private final OffsetClock clock;

        FaultClockController(OffsetClock clock) {
            this.clock = clock;
        }

        @PostMapping("/fault/clock")
        ResponseEntity<?> setOffset(@RequestParam long offsetMillis) {
            if (Math.abs(offsetMillis) > MAX_OFFSET_MILLIS) {
                return Problems.response(ProblemType.INVALID_REQUEST, "offsetMillis must be within "
                        + MAX_OFFSET_MILLIS + " ms of the system clock", 0);
            }
            long previous = clock.offsetMillis();
            clock.setOffsetMillis(offsetMillis);
            log.warn("Fault injection: clock offset moved from {} ms to {} ms", previous, offsetMillis);
            return ResponseEntity.ok(Map.of("offsetMillis", offsetMillis));
        }
    }
}
