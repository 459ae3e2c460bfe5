package org.leafid.bench;

import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentIdGenerator;
import org.leafid.core.segment.SegmentSettings;
import org.leafid.core.segment.StepPolicy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Segment IDs as the server issues them: from the generator it keeps per tag
 * ({@link #generator}) and through the per-tag look-up ({@link #get}). The double buffer runs
 * for real, with the next block loaded by a background pool like the server's; the store never
 * runs dry and the step is fixed at {@code step} (max step = row step), so the figures are the
 * buffer's, at one block load every {@code step} IDs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SegmentBenchmark {

    static final String TAG = "bench";

    @Param({"1000", "100000"})
    public int step;

    private ThreadPoolExecutor loader;
    private SegmentAllocator allocator;
    private SegmentIdGenerator generator;

    @Setup(Level.Trial)
    public void setUp() {
        // The server's loader: two daemon threads, bounded queue (SegmentAutoConfiguration).
        loader = new ThreadPoolExecutor(2, 2, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(10_000), runnable -> {
            Thread thread = new Thread(runnable, "bench-segment-loader");
            thread.setDaemon(true);
            return thread;
        });
        NeverDryStore store = new NeverDryStore().put(TAG, 1, step);
        SegmentSettings settings = new SegmentSettings(new StepPolicy(step, StepPolicy.DEFAULT_TARGET),
                Duration.ofSeconds(1));
        allocator = new SegmentAllocator(store, settings, InstantSource.system(), loader);
        allocator.refresh();
        generator = allocator.generator(TAG);
        generator.nextId(); // the first block is loaded before measuring
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        loader.shutdownNow();
    }

    /** {@code SegmentIdGenerator.nextId()}: the object the server keeps per tag. */
    @Benchmark
    public long generator() {
        return generator.nextId();
    }

    /** {@code SegmentAllocator.nextId(tag)}: the tag looked up on every call, as a request does. */
    @Benchmark
    public long get() {
        return allocator.nextId(TAG);
    }
}
