package org.leafid.autoconfigure.segment;

import java.util.LinkedHashMap;
import java.util.Map;
import org.leafid.core.segment.MultiStoreSegmentStore;
import org.leafid.core.segment.MultiStoreSegmentStore.StoreStatus;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@code segmentStores}: UP while at least one store of {@code leaf.jdbc.stores} answers, DOWN when
 * none does. Its details name each store UP or DOWN with the reason; the server shows details to
 * an authorized caller only, and the status page to the admin token.
 */
public final class SegmentStoresHealthIndicator implements HealthIndicator {

    private final MultiStoreSegmentStore stores;

    public SegmentStoresHealthIndicator(MultiStoreSegmentStore stores) {
        this.stores = stores;
    }

    @Override
    public Health health() {
        Map<String, Object> details = new LinkedHashMap<>();
        boolean anyUp = false;
        for (StoreStatus status : stores.status()) {
            anyUp |= status.up();
            details.put(status.name(), status.up() ? "UP" : "DOWN: " + status.lastFailure());
        }
        return (anyUp ? Health.up() : Health.down()).withDetails(details).build();
    }
}
