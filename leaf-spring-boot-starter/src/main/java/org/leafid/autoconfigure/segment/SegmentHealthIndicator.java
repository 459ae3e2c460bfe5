package org.leafid.autoconfigure.segment;

import java.util.List;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentBufferView;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@code segment} in the readiness group: DOWN until the tag list has been read, and while a
 * tag has nothing left to issue because the database could not be reached to load more. The
 * {@code reason} detail names the cause, as the log line does.
 */
public final class SegmentHealthIndicator implements HealthIndicator {

    private final SegmentAllocator allocator;

    public SegmentHealthIndicator(SegmentAllocator allocator) {
        this.allocator = allocator;
    }

    @Override
    public Health health() {
        if (!allocator.tagsLoaded()) {
            return Health.down().withDetail("reason", notLoadedReason(allocator)).build();
        }
        List<SegmentBufferView> views = List.copyOf(allocator.views().values());
        List<String> starved = views.stream().filter(SegmentBufferView::starved).map(SegmentBufferView::tag).toList();
        if (!starved.isEmpty()) {
            return Health.down()
                    .withDetail("reason", "tags with both buffers empty and the database unreachable")
                    .withDetail("tags", starved)
                    .withDetail("lastLoadFailure", views.stream().filter(SegmentBufferView::starved).findFirst()
                            .map(SegmentBufferView::lastLoadFailure).orElse(""))
                    .build();
        }
        return Health.up().withDetail("tags", views.size()).build();
    }

    /** Why no segment ID can be issued before the first read of the tag list, in one sentence. */
    public static String notLoadedReason(SegmentAllocator allocator) {
        RuntimeException failure = allocator.lastRefreshFailure();
        if (failure == null) {
            return "the tag list has not been read from leaf_alloc yet";
        }
        String reason = failure instanceof SegmentStoreException store ? store.reason() : failure.toString();
        return reason + "; segment IDs are refused with 503 until it answers";
    }
}
