package org.leafid.server.problem;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RefusalLogTest {

    private final Logger logger = (Logger) LoggerFactory.getLogger("refusal-log-test");
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    @BeforeEach
    void attach() {
        lines.start();
        logger.addAppender(lines);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(lines);
    }

    @Test
    void aStormOfRefusalsFromManyThreadsIsOneLinePerKind() throws Exception {
        RefusalLog refusals = new RefusalLog(logger, 60_000);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 5_000; i++) {
                        refusals.warn("store-unavailable", "store down");
                        refusals.warn("worker-id-unavailable", "no worker id");
                    }
                }));
            }
            for (Future<?> each : done) {
                each.get(30, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }

        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage)
                .containsExactlyInAnyOrder("store down", "no worker id");
    }

    @Test
    void theNextLineAfterTheIntervalSaysHowManyWereLeftOut() {
        AtomicLong nanos = new AtomicLong(1_000);
        RefusalLog refusals = new RefusalLog(logger, 10_000, nanos::get);
        refusals.warn("tag-exhausted", "first");
        refusals.warn("tag-exhausted", "left out");
        refusals.warn("tag-exhausted", "left out");
        nanos.addAndGet(9_999_000_000L);
        refusals.warn("tag-exhausted", "still inside the interval");

        nanos.addAndGet(1_000_000L);
        refusals.warn("tag-exhausted", "second");

        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly("first",
                "second (3 more refusals of this kind in the last 10 s not logged)");
    }

    @Test
    void refusalsThatNeedAnOperatorAreErrors() {
        RefusalLog refusals = new RefusalLog(logger, 10_000);

        refusals.error("tag-exhausted", "tag used up");
        refusals.warn("store-unavailable", "store down");

        assertThat(lines.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.ERROR, Level.WARN);
    }
}
