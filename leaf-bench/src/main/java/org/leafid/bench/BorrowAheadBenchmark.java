package org.leafid.bench;

import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.Borrowing;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
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
 * uid-generator's cached generation in Leaf's terms: the uid-generator layout (31/20/12
 * bits of seconds), borrow-ahead on and unbounded, as in the {@code disposable} worker-id mode,
 * with the system clock. A second's 4,096 sequences spent, the next second is taken at once, so
 * the rate is the generator's, not the clock's. The target is at least 8 M IDs/s on one
 * thread (uid-generator's CachedUidGenerator: 6-7.6 M/s).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class BorrowAheadBenchmark {

    private SnowflakeGenerator generator;

    @Setup(Level.Trial)
    public void setUp() {
        generator = new SnowflakeGenerator(SnowflakeLayout.uidGenerator(), new ForeverWorkerIdHolder(1000),
                InstantSource.system(), Sleeper.system(), ThreadLocalRandom.current(), Duration.ofMillis(5),
                Borrowing.UNBOUNDED);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        generator.close();
    }

    /** {@code SnowflakeGenerator.nextId()}, borrowing. */
    @Benchmark
    public long nextId() {
        return generator.nextId();
    }
}
