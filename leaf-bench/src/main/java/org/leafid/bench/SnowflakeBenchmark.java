package org.leafid.bench;

import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.leafid.core.Sleeper;
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
 * Snowflake IDs with the system clock and {@link Sleeper#system()}, built as the server builds
 * its generator (SnowflakeAutoConfiguration), with a worker id leased for all time. The ceiling is
 * the 12-bit sequence: 4,096 per millisecond less the random start offset (0-99), about
 * 4,046,000 IDs/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SnowflakeBenchmark {

    private SnowflakeGenerator generator;

    @Setup(Level.Trial)
    public void setUp() {
        generator = new SnowflakeGenerator(SnowflakeLayout.leafDefault(), new ForeverWorkerIdHolder(0),
                InstantSource.system(), Sleeper.system(), ThreadLocalRandom.current(), Duration.ofMillis(5));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        generator.close();
    }

    /** {@code SnowflakeGenerator.nextId()}. */
    @Benchmark
    public long nextId() {
        return generator.nextId();
    }
}
