package org.leafid.autoconfigure.snowflake;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.InstantSource;
import org.leafid.core.LeafException;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.worker.WorkerIdHolder;

/**
 * The snowflake meters: {@code leaf_ids_issued_total{mode="snowflake",key="all"}} (the key of a
 * snowflake call does not change the ID, and labelling by it would let any caller create series),
 * {@code leaf_snowflake_clock_backward_total}, {@code leaf_snowflake_worker_id} (-1 while none is
 * held), {@code leaf_worker_heartbeat_age_seconds} and {@code leaf_snowflake_borrowed_seconds} (how far
 * the last ID's time is ahead of the clock: above 0 only with {@code leaf.snowflake.borrow-ahead}).
 */
public final class SnowflakeMeters {

    public SnowflakeMeters(MeterRegistry registry, SnowflakeGenerator generator, WorkerIdHolder holder,
            InstantSource clock) {
        // Counted by the generator, as segment and shard count theirs: every caller of it counts.
        FunctionCounter.builder("leaf.ids.issued", generator, SnowflakeGenerator::issuedCount)
                .description("IDs handed out").tags("mode", "snowflake", "key", "all").register(registry);
        FunctionCounter.builder("leaf.snowflake.clock.backward", generator, SnowflakeGenerator::clockBackwardsEvents)
                .description("Times the clock was found behind the last ID issued (waited out or refused)")
                .register(registry);
        Gauge.builder("leaf.snowflake.worker.id", holder, SnowflakeMeters::workerId)
                .description("The worker id held, -1 when none").register(registry);
        Gauge.builder("leaf.worker.heartbeat.age", holder, h -> heartbeatAgeSeconds(h, clock))
                .description("Time since the reservation was last recorded").baseUnit("seconds").register(registry);
        Gauge.builder("leaf.snowflake.borrowed", generator, g -> g.borrowedMillis() / 1000.0)
                .description("How far the time of the last ID issued is ahead of the clock (borrow-ahead)")
                .baseUnit("seconds").register(registry);
    }

    private static double workerId(WorkerIdHolder holder) {
        try {
            return holder.lease().workerId();
        } catch (LeafException e) {
            return -1;
        }
    }

    private static double heartbeatAgeSeconds(WorkerIdHolder holder, InstantSource clock) {
        long last = holder.lastRecordedMillis();
        return last < 0 ? Double.NaN : (clock.millis() - last) / 1000.0;
    }
}
