package org.leafid.server.admin;

import java.util.List;
import java.util.Map;
import org.leafid.autoconfigure.shard.ShardAppRefresher;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardAppDirectory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Conditional;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/admin/refresh}: re-reads now what the server otherwise re-reads every refresh
 * interval: the tag list of {@code leaf_alloc} (segment mode) and the app list of {@code id_alloc}
 * with the apps' modes (shard mode), whichever modes are on.
 */
@RestController
@RequestMapping("/api/admin")
@Conditional(AdminTokenConfigured.class)
class AdminRefreshController {

    private final ObjectProvider<SegmentAllocator> segments;
    private final ObjectProvider<ShardAppRefresher> shardApps;
    private final ObjectProvider<ShardAppDirectory> shardDirectory;

    AdminRefreshController(ObjectProvider<SegmentAllocator> segments, ObjectProvider<ShardAppRefresher> shardApps,
            ObjectProvider<ShardAppDirectory> shardDirectory) {
        this.segments = segments;
        this.shardApps = shardApps;
        this.shardDirectory = shardDirectory;
    }

    @PostMapping("/refresh")
    RefreshView refresh() {
        SegmentAllocator allocator = segments.getIfAvailable();
        SegmentAllocator.Refresh tags = allocator == null ? new SegmentAllocator.Refresh(List.of(), List.of())
                : allocator.refresh();
        ShardAppRefresher apps = shardApps.getIfAvailable();
        List<Integer> served = List.of();
        Map<Integer, String> refused = Map.of();
        if (apps != null) {
            apps.refresh();
            ShardAppDirectory directory = shardDirectory.getObject();
            served = directory.apps().stream().map(ShardApp::appId).sorted().toList();
            refused = directory.refusals();
        }
        return new RefreshView(sorted(tags.added()), sorted(tags.removed()), served, refused);
    }

    /** What a refresh changed in the tags, each list sorted, and the apps served and refused after it. */
    record RefreshView(List<String> added, List<String> removed, List<Integer> apps, Map<Integer, String> refusedApps) {}

    private static List<String> sorted(List<String> tags) {
        return tags.stream().sorted().toList();
    }
}
