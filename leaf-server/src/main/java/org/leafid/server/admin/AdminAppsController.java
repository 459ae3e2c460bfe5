package org.leafid.server.admin;

import java.net.URI;
import org.leafid.autoconfigure.shard.ShardAppRefresher;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardStore;
import org.leafid.jdbc.shard.IdAllocRepository;
import org.leafid.server.problem.ModeDisabledException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Conditional;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import tools.jackson.databind.JsonNode;

/**
 * The admin API of shard mode: create an app, its 64 {@code id_alloc} rows in one transaction,
 * served by this instance at once (other instances at their next app-list refresh). With shard
 * mode off the path says so (404 {@code mode-disabled}) after the token check.
 */
@RestController
@RequestMapping("/api/admin")
@Conditional(AdminTokenConfigured.class)
class AdminAppsController {

    private static final Logger log = LoggerFactory.getLogger(AdminAppsController.class);

    private final ObjectProvider<ShardStore> store;
    private final ObjectProvider<ShardAppRefresher> refresher;

    AdminAppsController(ObjectProvider<ShardStore> store, ObjectProvider<ShardAppRefresher> refresher) {
        this.store = store;
        this.refresher = refresher;
    }

    @PostMapping("/apps")
    ResponseEntity<AppView> create(@RequestBody JsonNode body) {
        if (!(store.getIfAvailable() instanceof IdAllocRepository table)) {
            // Shard mode off, or an application's own store, which has no table to write.
            throw ModeDisabledException.shard();
        }
        AppRequests.NewApp request = AppRequests.newApp(body);
        int appId = request.appId();
        if (!table.rows(appId).isEmpty()) {
            throw new AppExistsException(appId);
        }
        long mark = table.highWaterOfApp(appId);
        if (mark > 0) {
            throw new BelowHighWaterException("App " + appId + " had indexes up to " + mark + " reserved before its "
                    + "rows were deleted (leaf_high_water keeps them); created again from 0 it would issue them again. "
                    + "Use a new app id (0-255)");
        }
        ShardAppRefresher apps = refresher.getIfAvailable();
        String modeTaken = apps == null ? null : apps.claimModeOfNewApp(appId, request.maxLimitId());
        if (modeTaken != null) {
            throw new AppModeTakenException("This server cannot create " + modeTaken);
        }
        ShardApp app = table.createApp(request.appId(), request.appName(), request.step(), request.maxLimitId(),
                request.description()).orElseThrow(() -> new AppExistsException(request.appId()));
        log.info("Admin: created app {} '{}' (64 shards, step {}, max_limit_id {})", app.appId(), app.appName(),
                app.step(), app.maxLimitId());
        serveAtOnce(app.appId());
        URI location = ServletUriComponentsBuilder.fromCurrentContextPath().path("/api/shard/apps").build().toUri();
        return ResponseEntity.created(location).body(AppView.of(app, request.description()));
    }

    /**
     * Re-reads the app list so this instance serves the app now. The rows are committed whatever
     * happens here: a failed re-read is logged, and the periodic refresh brings the app in.
     */
    private void serveAtOnce(int appId) {
        ShardAppRefresher apps = refresher.getIfAvailable();
        if (apps == null) {
            return;
        }
        try {
            apps.refresh();
        } catch (RuntimeException e) {
            log.warn("App {} was created, but the app list could not be re-read ({}); it is served from the next "
                    + "periodic refresh", appId, e.getMessage());
        }
    }
}
