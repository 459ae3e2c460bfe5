package org.leafid.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** The floor a counter shared by threads can reach: {@code AtomicLong.getAndIncrement}. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class AtomicLongBenchmark {

    private final AtomicLong counter = new AtomicLong();

    /** The result goes to JMH's blackhole. */
    @Benchmark
    public long getAndIncrement() {
        return counter.getAndIncrement();
    }
}
