package org.leafid.bench;

import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.leafid.core.IdGenerator;
import org.leafid.core.format.FormatPattern;
import org.leafid.core.format.FormattedIdGenerator;
import org.leafid.core.format.PeriodSequences;
import org.leafid.core.format.ResetPeriod;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentIdGenerator;
import org.leafid.core.segment.SegmentSettings;
import org.leafid.core.segment.StepPolicy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The daily order number as the server makes it ({@link #formatted}): the period's segment generator,
 * the digits, the Luhn check digit and the string (the clock is read when the day ends, by the
 * server's timer); beside it the segment
 * generator alone ({@link #segment}), the number it is made from. The number is 10 digits wide
 * here ({@code ORD{yyyy}{MM}{dd}{seq:10}{check}}), not 6: a run issues more than a day's 999,999.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class FormatBenchmark {

    static final String PATTERN = "ORD{yyyy}{MM}{dd}{seq:10}{check}";
    private static final int STEP = 100_000;

    private ThreadPoolExecutor loader;
    private ScheduledExecutorService timer;
    private SegmentIdGenerator numbers;
    private SegmentIdGenerator segment;
    private FormattedIdGenerator order;

    @Setup(Level.Trial)
    public void setUp() {
        loader = new ThreadPoolExecutor(2, 2, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(10_000), runnable -> {
            Thread thread = new Thread(runnable, "bench-format-loader");
            thread.setDaemon(true);
            return thread;
        });
        NeverDryStore store = new NeverDryStore().put("order", 1, STEP).put("plain", 1, STEP);
        SegmentAllocator allocator = new SegmentAllocator(store, new SegmentSettings(
                new StepPolicy(STEP, StepPolicy.DEFAULT_TARGET), Duration.ofSeconds(1)), InstantSource.system(), loader);
        allocator.refresh();
        numbers = allocator.generator("order");
        segment = allocator.generator("plain");
        // As SegmentPeriodSequences answers: one generator, which counts what it issues.
        PeriodSequences sequences = new PeriodSequences() {
            @Override
            public IdGenerator sequence(String period) {
                return numbers;
            }

            @Override
            public long issuedCount() {
                return numbers.issuedCount();
            }
        };
        // The server's timer (FormatAutoConfiguration): the clock is read when a day ends, not per string.
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "bench-format-timer");
            thread.setDaemon(true);
            return thread;
        });
        InstantSource clock = InstantSource.system();
        order = new FormattedIdGenerator("order", FormatPattern.parse(PATTERN), ResetPeriod.DAILY,
                ZoneId.of("Asia/Shanghai"), sequences, clock, Duration.ofMinutes(1),
                (at, task) -> timer.schedule(task, Math.max(0, at - clock.millis()), TimeUnit.MILLISECONDS));
        order.next(); // the first block is loaded before measuring
        segment.nextId();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        loader.shutdownNow();
        timer.shutdownNow();
    }

    /** One daily order number, e.g. {@code ORD2026112800000012345} and its check digit. */
    @Benchmark
    public String formatted() {
        return order.next();
    }

    /** The segment generator alone: what a formatted string costs on top of. */
    @Benchmark
    public long segment() {
        return segment.nextId();
    }
}
