package org.leafid.bench;

import java.util.concurrent.TimeUnit;
import org.leafid.core.shard.OpaquePermutation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Shard mode's opaque index: one keyed permutation per ID ({@link OpaquePermutation#permute}) of
 * consecutive indexes, as the generator asks for them. Two ranges: the largest, 2^49 - 1 (an app
 * without limit), which fills its 49-bit Feistel width, and 2^48 + 1, the slowest kind, which
 * fills only half of its 49 bits, so about half the values walk the cycle once more.
 * {@code -p n=262143} measures an app limited to 2^32. The target is at least 20 M/s on one
 * thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class OpaquePermutationBenchmark {

    @Param({"562949953421311", "281474976710657"})
    public long n;

    private OpaquePermutation permutation;
    private long next;

    @Setup
    public void setUp() {
        permutation = OpaquePermutation.fromKeyText("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
    }

    @Benchmark
    public long permute() {
        long x = next;
        next = x + 1 == n ? 0 : x + 1;
        return permutation.permute(x, n);
    }
}
