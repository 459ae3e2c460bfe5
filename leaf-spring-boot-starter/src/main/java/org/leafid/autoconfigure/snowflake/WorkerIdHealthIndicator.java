package org.leafid.autoconfigure.snowflake;

import java.time.InstantSource;
import org.leafid.core.LeafException;
import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.core.worker.WorkerLease;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@code workerId} in the readiness group: UP while the worker id is held and its reservation
 * covers the clock, so a load balancer stops sending snowflake traffic to an instance that
 * would answer 503.
 */
public final class WorkerIdHealthIndicator implements HealthIndicator {

    private final WorkerIdHolder holder;
    private final InstantSource clock;

    public WorkerIdHealthIndicator(WorkerIdHolder holder, InstantSource clock) {
        this.holder = holder;
        this.clock = clock;
    }

    @Override
    public Health health() {
        WorkerLease lease;
        try {
            lease = holder.lease();
        } catch (LeafException e) {
            return Health.down().withDetail("reason", e.getMessage()).build();
        }
        long now = clock.millis();
        Health.Builder health = lease.covers(now) ? Health.up() : Health.down().withDetail("reason",
                "the time reservation ended at " + lease.reservedUntilMillis() + " and could not be renewed");
        return health.withDetail("workerId", lease.workerId())
                .withDetail("reservedUntil", lease.reservedUntilMillis())
                .build();
    }
}
