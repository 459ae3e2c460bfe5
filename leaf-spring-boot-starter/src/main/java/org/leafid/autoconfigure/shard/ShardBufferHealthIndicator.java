package org.leafid.autoconfigure.shard;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@code shardBuffer}: where shard-mode indexes come from ({@code memory}, {@code redis}, or
 * {@code memory (Redis down)}). Always UP: while Redis does not answer, memory blocks reserved in
 * the database keep IDs coming, so an instance without Redis must not be taken out of service.
 */
public final class ShardBufferHealthIndicator implements HealthIndicator {

    private final ShardBufferStatus status;

    public ShardBufferHealthIndicator(ShardBufferStatus status) {
        this.status = status;
    }

    @Override
    public Health health() {
        return Health.up().withDetail("source", status.source()).build();
    }
}
