package org.leafid.server.web;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import org.leafid.core.LeafException;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.snowflake.WorkerIdHolder;
import org.leafid.core.snowflake.WorkerLease;
import org.leafid.server.config.LeafProperties;
import org.leafid.server.config.SegmentProperties;
import org.leafid.server.config.SnowflakeProperties;
import org.leafid.server.worker.InstanceAddress;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /}: a human-readable status page, server-rendered HTML with no scripts or external
 * assets. It only reads what the generators already expose for monitoring (buffer views, the
 * lease in force), so it takes nothing from the ID hot path.
 *
 * <p>The segment and snowflake beans exist only when their mode is on, so they come through
 * {@link ObjectProvider}s and the page shows a switched-off mode as disabled.
 */
@RestController
class StatusPageController {

    private static final MediaType HTML = new MediaType("text", "html", StandardCharsets.UTF_8);

    private final LeafProperties leaf;
    private final SegmentProperties segmentProperties;
    private final SnowflakeProperties snowflakeProperties;
    private final ObjectProvider<SegmentAllocator> segmentAllocator;
    private final ObjectProvider<WorkerIdHolder> workerIdHolder;
    private final ObjectProvider<InstanceAddress> instanceAddress;
    private final InstantSource clock;

    StatusPageController(LeafProperties leaf, SegmentProperties segmentProperties,
            SnowflakeProperties snowflakeProperties, ObjectProvider<SegmentAllocator> segmentAllocator,
            ObjectProvider<WorkerIdHolder> workerIdHolder, ObjectProvider<InstanceAddress> instanceAddress,
            InstantSource leafClock) {
        this.leaf = leaf;
        this.segmentProperties = segmentProperties;
        this.snowflakeProperties = snowflakeProperties;
        this.segmentAllocator = segmentAllocator;
        this.workerIdHolder = workerIdHolder;
        this.instanceAddress = instanceAddress;
        this.clock = leafClock;
    }

    @GetMapping("/")
    ResponseEntity<String> page() {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS); // as precise as every other time shown
        StatusPage.Model model = new StatusPage.Model(leaf.name(), now, segment(), snowflake());
        // A status page must show the state now, never a cached copy.
        return ResponseEntity.ok().contentType(HTML).cacheControl(CacheControl.noStore())
                .body(StatusPage.render(model));
    }

    private StatusPage.SegmentSection segment() {
        SegmentAllocator allocator = segmentProperties.enable() ? segmentAllocator.getIfAvailable() : null;
        if (allocator == null) {
            return StatusPage.SegmentSection.disabled();
        }
        return new StatusPage.SegmentSection(true, allocator.tagsLoaded(), List.copyOf(allocator.views().values()));
    }

    private StatusPage.SnowflakeSection snowflake() {
        WorkerIdHolder holder = snowflakeProperties.enable() ? workerIdHolder.getIfAvailable() : null;
        if (holder == null) {
            return new StatusPage.SnowflakeSection(false, null, null, null, null);
        }
        String mode = snowflakeProperties.mode().name().toLowerCase(Locale.ROOT);
        InstanceAddress address = instanceAddress.getIfAvailable();
        String instance = address == null ? null : address.key();
        try {
            WorkerLease lease = holder.lease();
            return new StatusPage.SnowflakeSection(true, mode, instance, lease, null);
        } catch (LeafException e) {
            // Not held (still starting, lost, or closed): the holder's message says which.
            return new StatusPage.SnowflakeSection(true, mode, instance, null, e.getMessage());
        }
    }
}
