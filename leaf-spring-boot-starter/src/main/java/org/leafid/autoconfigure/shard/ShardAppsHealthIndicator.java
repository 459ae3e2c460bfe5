package org.leafid.autoconfigure.shard;

import org.leafid.core.shard.ShardAppDirectory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@code shardApps} in the readiness group: DOWN until the app list of {@code id_alloc} has been
 * read once (no app can be told known or unknown), and while an app is listed that this server
 * may not serve because its recorded mode (plain or opaque) differs from this server's; the
 * details name those apps and why.
 */
public final class ShardAppsHealthIndicator implements HealthIndicator {

    private final ShardAppDirectory directory;
    private final ShardAppRefresher refresher;

    public ShardAppsHealthIndicator(ShardAppDirectory directory, ShardAppRefresher refresher) {
        this.directory = directory;
        this.refresher = refresher;
    }

    @Override
    public Health health() {
        if (!directory.loaded()) {
            RuntimeException failure = refresher.lastFailure();
            return Health.down().withDetail("reason", "the app list of id_alloc has not been read yet"
                    + (failure == null ? "" : ": " + failure.getMessage())).build();
        }
        if (!directory.refusals().isEmpty()) {
            return Health.down()
                    .withDetail("reason", "apps listed in id_alloc that this server may not serve (503 app-mode-conflict)")
                    .withDetail("refused", directory.refusals())
                    .withDetail("apps", directory.apps().size())
                    .build();
        }
        return Health.up().withDetail("apps", directory.apps().size()).build();
    }
}
