package org.leafid.autoconfigure.jdbc;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.leafid.jdbc.HighWaterMarks;

/**
 * {@code leaf_numbers_moved_back_total{table}}: block reservations that found their row's
 * {@code max_id} below the highest one this fleet reserved (set back, or deleted and inserted
 * again) and moved it past. Any increase means someone edits {@code leaf_alloc} or {@code id_alloc}
 * in a way that would have repeated IDs; the WARN line names the tag or app.
 */
public final class HighWaterMeter {

    private HighWaterMeter() {}

    public static void register(MeterRegistry registry, HighWaterMarks marks) {
        FunctionCounter.builder("leaf.numbers.moved.back", marks, HighWaterMarks::movedBackCount)
                .description("Reservations whose row was below its high-water mark and was moved past it")
                .tag("table", marks.table()).register(registry);
    }
}
