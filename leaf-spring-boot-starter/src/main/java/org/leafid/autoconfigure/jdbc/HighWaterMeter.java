package org.leafid.autoconfigure.jdbc;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.leafid.jdbc.reservation.HighWaterMarks;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.SqlRetry;

/**
 * {@code leaf_numbers_moved_back_total{table}}: block reservations that found their row's
 * {@code max_id} below the highest one this fleet reserved (set back, or deleted and inserted
 * again) and moved it past. Any increase means someone edits {@code leaf_alloc} or {@code id_alloc}
 * in a way that would have repeated IDs; the WARN line names the tag or app.
 *
 * <p>{@code leaf_db_retries_total{table,kind}}: reservations the database answered "try again"
 * (deadlock, lock wait timeout, table definition changed, serialization failure) and that were
 * run again ({@link SqlRetry}). A few are routine when servers meet on one row; a steady rate
 * means contention or long transactions on the table.
 */
public final class HighWaterMeter {

    private HighWaterMeter() {}

    public static void register(MeterRegistry registry, HighWaterMarks marks) {
        FunctionCounter.builder("leaf.numbers.moved.back", marks, HighWaterMarks::movedBackCount)
                .description("Reservations whose row was below its high-water mark and was moved past it")
                .tag("table", marks.table()).register(registry);
    }

    public static void registerRetries(MeterRegistry registry, SqlRetry retry) {
        for (SqlFailures.TryAgain kind : SqlFailures.TryAgain.values()) {
            FunctionCounter.builder("leaf.db.retries", retry, r -> r.retries(kind))
                    .description("Block reservations retried because the database answered \"try again\"")
                    .tag("table", retry.table()).tag("kind", kind.tag()).register(registry);
        }
    }
}
