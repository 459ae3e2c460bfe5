package org.leafid.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.time.InstantSource;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservationFile;
import org.leafid.core.worker.ReservingWorkerIdHolder;
import org.leafid.core.worker.WorkerLease;
import org.leafid.core.worker.local.LocalWorkerIdRegistry;
import org.leafid.core.worker.local.LocalWorkerIds;
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
 * The worker-id holder the server runs ({@code local} mode, its reservation file in a temporary
 * directory, renewed every 3 s): its {@code lease()}, read on every snowflake ID, and snowflake IDs
 * through it. {@link SnowflakeBenchmark} measures the generator alone, with a lease that never ends.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WorkerLeaseBenchmark {

    private Path directory;
    private ReservingWorkerIdHolder holder;
    private SnowflakeGenerator generator;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        directory = Files.createTempDirectory("leaf-lease-bench");
        holder = new ReservingWorkerIdHolder(new LocalWorkerIdRegistry(LocalWorkerIds.fixed(0,
                SnowflakeLayout.MAX_WORKER_ID), new InstanceAddress("127.0.0.1", 8080),
                new ReservationFile(directory.resolve("workId.json"))), InstantSource.system(), Sleeper.system(),
                Duration.ofSeconds(3), Duration.ofSeconds(5));
        holder.start();
        generator = new SnowflakeGenerator(SnowflakeLayout.leafDefault(), holder, InstantSource.system(),
                Sleeper.system(), ThreadLocalRandom.current(), Duration.ofMillis(5));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        generator.close();
        try (var files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** {@code ReservingWorkerIdHolder.lease()}. */
    @Benchmark
    public WorkerLease lease() {
        return holder.lease();
    }

    /** {@code SnowflakeGenerator.nextId()} with the holder's lease. */
    @Benchmark
    public long nextId() {
        return generator.nextId();
    }
}
