package org.leafid.server.status;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import jakarta.servlet.http.HttpServletRequest;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.jdbc.JdbcProperties;
import org.leafid.autoconfigure.jdbc.LeafDataSource;
import org.leafid.autoconfigure.mode.WorkerIdModeChoice;
import org.leafid.autoconfigure.segment.SegmentHealthIndicator;
import org.leafid.autoconfigure.segment.SegmentLoadOutcomes;
import org.leafid.autoconfigure.segment.SegmentProperties;
import org.leafid.autoconfigure.shard.ShardAppRefresher;
import org.leafid.autoconfigure.shard.ShardBufferStatus;
import org.leafid.autoconfigure.shard.ShardMeters;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.leafid.core.LeafException;
import org.leafid.core.format.FormattedIds;
import org.leafid.core.segment.MultiStoreSegmentStore;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentBufferView;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardAppDirectory;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.core.worker.WorkerLease;
import org.leafid.jdbc.EmbeddedDatabase;
import org.leafid.jdbc.JdbcUrls;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.disclosure.Disclosure;
import org.leafid.server.id.HttpProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.info.BuildProperties;
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
    private final JdbcProperties jdbc;
    private final SegmentProperties segmentProperties;
    private final SnowflakeProperties snowflakeProperties;
    private final ObjectProvider<SegmentAllocator> segmentAllocator;
    private final ObjectProvider<WorkerIdHolder> workerIdHolder;
    private final ObjectProvider<InstanceAddress> instanceAddress;
    private final ObjectProvider<SegmentLoadOutcomes> loadOutcomes;
    private final ObjectProvider<HealthEndpoint> health;
    private final ObjectProvider<LeafDataSource> leafDataSource;
    private final ObjectProvider<BuildProperties> build;
    private final StatusPageTraffic traffic;
    private final InstantSource clock;
    private final ObjectProvider<ShardAppDirectory> shardApps;
    private final ObjectProvider<FormattedIds> formattedIds;
    private final ObjectProvider<ShardMeters> shardMeters;
    private final ObjectProvider<ShardBufferStatus> shardBuffer;
    private final ObjectProvider<ShardAppRefresher> shardRefresher;
    private final ObjectProvider<SnowflakeLayout> snowflakeLayout;
    private final ObjectProvider<WorkerIdModeChoice> workerIdModeChoice;
    private final boolean apiDocs;
    private final Disclosure disclosure;
    private final ObjectProvider<MultiStoreSegmentStore> severalStores;

    StatusPageController(LeafProperties leaf, JdbcProperties jdbc, SegmentProperties segmentProperties,
            SnowflakeProperties snowflakeProperties, ObjectProvider<SegmentAllocator> segmentAllocator,
            ObjectProvider<WorkerIdHolder> workerIdHolder, ObjectProvider<InstanceAddress> instanceAddress,
            ObjectProvider<SegmentLoadOutcomes> loadOutcomes, ObjectProvider<HealthEndpoint> health,
            ObjectProvider<LeafDataSource> leafDataSource, ObjectProvider<BuildProperties> build,
            StatusPageTraffic traffic, InstantSource leafClock, ObjectProvider<ShardAppDirectory> shardApps,
            ObjectProvider<ShardMeters> shardMeters, ObjectProvider<ShardBufferStatus> shardBuffer,
            ObjectProvider<ShardAppRefresher> shardRefresher, ObjectProvider<SnowflakeLayout> snowflakeLayout,
            ObjectProvider<WorkerIdModeChoice> workerIdModeChoice, HttpProperties http, Disclosure disclosure,
            ObjectProvider<FormattedIds> formattedIds, ObjectProvider<MultiStoreSegmentStore> severalStores) {
        this.workerIdModeChoice = workerIdModeChoice;
        this.formattedIds = formattedIds;
        this.leaf = leaf;
        this.jdbc = jdbc;
        this.segmentProperties = segmentProperties;
        this.snowflakeProperties = snowflakeProperties;
        this.segmentAllocator = segmentAllocator;
        this.workerIdHolder = workerIdHolder;
        this.instanceAddress = instanceAddress;
        this.loadOutcomes = loadOutcomes;
        this.health = health;
        this.leafDataSource = leafDataSource;
        this.build = build;
        this.traffic = traffic;
        this.clock = leafClock;
        this.shardApps = shardApps;
        this.shardMeters = shardMeters;
        this.shardBuffer = shardBuffer;
        this.shardRefresher = shardRefresher;
        this.snowflakeLayout = snowflakeLayout;
        this.apiDocs = http.apiDocs();
        this.disclosure = disclosure;
        this.severalStores = severalStores;
    }

    /**
     * The page, with every failure's text, the database and the instance's address as the caller may
     * read them ({@link Disclosure}): without the admin token no host, url, database name or key
     * fingerprint.
     */
    @GetMapping("/")
    ResponseEntity<String> page(HttpServletRequest request) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS); // as precise as every other time shown
        UnaryOperator<String> shown = text -> disclosure.shown(request, text);
        StatusPage.Model model = new StatusPage.Model(leaf.name(), now, server(now, shown), segment(shown),
                snowflake(shown), shard(shown), formats(), apiDocs);
        // A status page must show the state now, never a cached copy.
        return ResponseEntity.ok().contentType(HTML).cacheControl(CacheControl.noStore())
                .body(StatusPage.render(model));
    }

    private List<StatusPageFormats.FormatRow> formats() {
        FormattedIds formats = formattedIds.getIfAvailable();
        if (formats == null) {
            return List.of();
        }
        return formats.all().values().stream().map(format -> new StatusPageFormats.FormatRow(format.name(),
                format.pattern().text(), format.reset().name().toLowerCase(Locale.ROOT), format.zone().getId(),
                format.currentPeriod(), format.issuedCount())).toList();
    }

    private StatusPageShard.ShardSection shard(UnaryOperator<String> shown) {
        ShardAppDirectory apps = shardApps.getIfAvailable();
        ShardMeters meters = shardMeters.getIfAvailable();
        ShardBufferStatus buffer = shardBuffer.getIfAvailable();
        if (apps == null || meters == null || buffer == null) {
            return StatusPageShard.ShardSection.disabled();
        }
        List<StatusPageShard.AppRow> rows = apps.apps().stream().sorted(Comparator.comparingInt(ShardApp::appId))
                .map(app -> new StatusPageShard.AppRow(app.appId(), app.appName(), app.shards().size(),
                        app.maxLimitId(), meters.headroom(app.appId()), buffer.queueLength(app.appId())))
                .toList();
        ShardAppRefresher refresher = shardRefresher.getIfAvailable();
        RuntimeException failure = refresher == null ? null : refresher.lastFailure();
        return new StatusPageShard.ShardSection(true, buffer.source(), rows,
                failure == null ? null : shown.apply("The app list could not be read from id_alloc: "
                        + failure.getMessage()));
    }

    private StatusPage.SegmentSection segment(UnaryOperator<String> shown) {
        SegmentAllocator allocator = segmentProperties.enable() ? segmentAllocator.getIfAvailable() : null;
        if (allocator == null) {
            return StatusPage.SegmentSection.disabled();
        }
        SegmentLoadOutcomes outcomes = loadOutcomes.getIfAvailable();
        Map<String, SegmentLoadOutcomes.Failure> failures = new HashMap<>();
        (outcomes == null ? Map.<String, SegmentLoadOutcomes.Failure>of() : outcomes.lastFailures()).forEach(
                (tag, failure) -> failures.put(tag, new SegmentLoadOutcomes.Failure(failure.at(),
                        shown.apply(failure.cause()))));
        boolean loaded = allocator.tagsLoaded();
        String notLoadedReason = loaded ? null : shown.apply(SegmentHealthIndicator.notLoadedReason(allocator));
        List<SegmentBufferView> views = allocator.views().values().stream()
                .map(view -> view.withLastLoadFailure(shown.apply(view.lastLoadFailure()))).toList();
        return new StatusPage.SegmentSection(true, loaded, notLoadedReason, views, failures);
    }

    private StatusPage.ServerSection server(Instant now, UnaryOperator<String> shown) {
        Instant started = traffic.startedAt();
        Instant since = started == null ? now : started.truncatedTo(ChronoUnit.MILLIS);
        StatusPage.Readiness readiness = readiness();
        return new StatusPage.ServerSection(version(), since, new StatusPage.Readiness(readiness.status(),
                readiness.reasons().stream().map(shown).toList()), shown.apply(dataSource()), traffic.lastMinute());
    }

    /** From build-info (the jar), else the jar's manifest, else: run from the classes. */
    private String version() {
        BuildProperties properties = build.getIfAvailable();
        if (properties != null && properties.getVersion() != null) {
            return properties.getVersion();
        }
        String manifest = LeafServerApplication.class.getPackage().getImplementationVersion();
        return manifest == null ? "development" : manifest;
    }

    /** The readiness group as the probe sees it, with each component that is not UP and its reason. */
    private StatusPage.Readiness readiness() {
        HealthEndpoint endpoint = health.getIfAvailable();
        HealthDescriptor readiness = endpoint == null ? null : endpoint.healthForPath("readiness");
        if (readiness == null) {
            return new StatusPage.Readiness("UNKNOWN", List.of("the readiness group is not available"));
        }
        List<String> reasons = new ArrayList<>();
        if (readiness instanceof CompositeHealthDescriptor group && group.getComponents() != null) {
            group.getComponents().forEach((name, component) -> {
                if (!Status.UP.equals(component.getStatus())) {
                    Object reason = component instanceof IndicatedHealthDescriptor indicated
                            && indicated.getDetails() != null ? indicated.getDetails().get("reason") : null;
                    reasons.add(name + ": " + (reason == null ? component.getStatus().getCode() : reason));
                }
            });
        }
        return new StatusPage.Readiness(readiness.getStatus().getCode(), reasons);
    }

    /** The H2 file, or the url without its password; null when no mode uses a database. */
    private String dataSource() {
        LeafDataSource dataSource = leafDataSource.getIfAvailable();
        if (dataSource == null) {
            return null;
        }
        if (dataSource.embedded()) {
            return "embedded H2, file " + EmbeddedDatabase.file(leaf.dataDir());
        }
        MultiStoreSegmentStore stores = jdbc.severalStores() ? severalStores.getIfAvailable() : null;
        if (stores != null) {
            return severalStoresText(stores);
        }
        if (jdbc.embedded()) {
            return dataSource.url(); // the application's DataSource
        }
        return JdbcUrls.withoutPassword(dataSource.url()) + (jdbc.username().isEmpty() ? "" : " as " + jdbc.username());
    }

    /** Each store of {@code leaf.jdbc.stores}: whether it answers, its last block, when it last answered. */
    private String severalStoresText(MultiStoreSegmentStore stores) {
        long now = clock.millis();
        List<String> lines = new ArrayList<>();
        for (MultiStoreSegmentStore.StoreStatus store : stores.status()) {
            String answered = store.lastAnswerMillis() == 0 ? "never answered"
                    : "answered " + (now - store.lastAnswerMillis()) / 1000.0 + " s ago";
            lines.add(store.name() + " " + store.where() + ": " + (store.up() ? "UP" : "DOWN (" + store.lastFailure()
                    + ")") + ", " + store.blocks() + " blocks, last ending " + store.lastBlockEnd() + ", " + answered);
        }
        return stores.status().size() + " stores (leaf.jdbc.stores): " + String.join("; ", lines);
    }

    private StatusPage.SnowflakeSection snowflake(UnaryOperator<String> shown) {
        WorkerIdHolder holder = snowflakeProperties.enable() ? workerIdHolder.getIfAvailable() : null;
        if (holder == null) {
            return new StatusPage.SnowflakeSection(false, null, null, null, null, null);
        }
        SnowflakeLayout layout = snowflakeLayout.getIfAvailable();
        String layoutText = layout == null ? null : layout.describe() + ", ends " + layout.endsAt();
        WorkerIdModeChoice choice = workerIdModeChoice.getIfAvailable();
        String mode = choice == null ? null : choice.mode().key();
        InstanceAddress address = instanceAddress.getIfAvailable();
        String instance = address == null ? null : shown.apply(address.key());
        try {
            WorkerLease lease = holder.lease();
            return new StatusPage.SnowflakeSection(true, mode, instance, lease, null, layoutText);
        } catch (LeafException e) {
            // Not held (still starting, lost, or closed): the holder's message says which.
            return new StatusPage.SnowflakeSection(true, mode, instance, null, shown.apply(e.getMessage()), layoutText);
        }
    }
}
