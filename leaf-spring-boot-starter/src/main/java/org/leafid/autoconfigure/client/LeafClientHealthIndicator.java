package org.leafid.autoconfigure.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.leafid.client.LeafClient;
import org.leafid.client.ServerState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@code leafClient}: UP while at least one Leaf server is not backing off after a failure, with
 * each server's state as a detail. It asks no server: the client's own record of its last calls is
 * the answer, so a health probe costs nothing and never waits for a timeout.
 */
public final class LeafClientHealthIndicator implements HealthIndicator {

    private final LeafClient client;

    public LeafClientHealthIndicator(LeafClient client) {
        this.client = client;
    }

    @Override
    public Health health() {
        List<ServerState> servers = client.servers();
        Map<String, Object> details = new LinkedHashMap<>();
        for (ServerState server : servers) {
            details.put(server.url(), server.up() ? "up"
                    : "down for " + server.downFor().toMillis() + " ms: " + server.lastFailure());
        }
        boolean anyUp = servers.stream().anyMatch(ServerState::up);
        Health.Builder health = anyUp ? Health.up() : Health.down()
                .withDetail("reason", "every Leaf server failed its last request; IDs are served from the buffer "
                        + "while it lasts");
        return health.withDetail("servers", details).build();
    }
}
