package org.leafid.client;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * leaf-client's {@code nextId()} from a filled buffer, the cost an application pays per ID: the
 * batches come from an in-memory source at once (no HTTP), 100,000 at a time as from a server
 * with {@code leaf.max-batch=100000} answering as ranges (one run each, as a segment batch nearly
 * always is), fetched in the background at 10 % used as in the client,
 * with the segment rule (IDs above those taken in) applied to each. In leaf-client's package
 * because the buffer is package-private there; run by client-bench.sh beside the AtomicLong
 * baseline, not by jmh.sh.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ClientBufferBenchmark {

    private ScheduledThreadPoolExecutor fetcher;
    private PrefetchBuffer buffer;

    @Setup
    public void fill() {
        fetcher = new ScheduledThreadPoolExecutor(1, ClientThreads.named("bench-fetch"));
        AtomicLong next = new AtomicLong(1);
        BatchSource source = (path, count, check) -> {
            return AnswerIds.run(next.getAndAdd(count), count);
        };
        buffer = new PrefetchBuffer("segment", "bench", "/api/segment/get/bench?", true, SegmentAnswerCheck::new,
                source, fetcher,
                new BatchSizer(100_000, Duration.ofMillis(100).toNanos()), 0.1, Duration.ofSeconds(10),
                System::nanoTime, ClientMeters.NONE);
        buffer.nextId(); // the first batch is in
    }

    @TearDown
    public void stop() {
        buffer.close();
        fetcher.shutdownNow();
    }

    /** The result goes to JMH's blackhole. */
    @Benchmark
    public long nextId() {
        return buffer.nextId();
    }
}
