package org.leafid.client;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the client does with one segment batch of {@code count} IDs when it arrives: read one ID per
 * line ({@link #lines}), or read the same batch as ranges ({@link #ranges}): one run, kept as its
 * first ID and size, nothing written out. Batches per second; times {@code count} for IDs per
 * second. In leaf-client's package because the readers are package-private there.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class BatchAnswerBenchmark {

    @Param({"100000"})
    public int count;

    private byte[] lines;
    private byte[] ranges;

    @Setup
    public void answers() {
        long first = 1_234_567_890_123L; // a tag well into its numbers: 13 digits a line
        StringBuilder text = new StringBuilder(count * 14);
        for (int i = 0; i < count; i++) {
            text.append(first + i).append('\n');
        }
        lines = text.toString().getBytes(StandardCharsets.US_ASCII);
        ranges = ("{\"count\":" + count + ",\"ranges\":[[\"" + first + "\",\"" + (first + count - 1) + "\"]]}")
                .getBytes(StandardCharsets.US_ASCII);
    }

    @Benchmark
    public long[] lines() throws BadAnswerException {
        return IdLines.parse(lines, count);
    }

    @Benchmark
    public AnswerIds ranges() throws BadAnswerException {
        return IdRangeAnswer.parse(ranges, count, true).ids();
    }
}
