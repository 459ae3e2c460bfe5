package org.leafid.autoconfigure.shard;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.leafid.core.shard.OpaquePermutation;
import org.leafid.core.shard.ShardApp;
import org.leafid.jdbc.shard.IdAllocRepository;
import org.leafid.jdbc.shard.ShardKeyFingerprints;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps plain and opaque IDs of an app apart, at every read of the app list. An app's mode is
 * decided once, in the database: the first server to see it records its own mode in
 * {@code leaf_shard_key} with an INSERT only one server can win ({@link ShardKeyFingerprints#check}),
 * and from then on every server compares. A server whose mode differs from the recorded one does
 * not serve the app: the generator answers 503 {@code app-mode-conflict} naming it and the cause,
 * readiness says so, and the log says it once. The permutation is a function of the key and of the
 * app's range ({@code max_limit_id}), so the fingerprint holds both.
 *
 * <p>A server with a key that meets an app with no record but reserved indexes ({@code max_id}
 * above 0, or a mark in {@code leaf_high_water} above 0: issued plainly by servers from before
 * modes were recorded, or by SQL that deleted the app's rows) records it plain: permuted indexes
 * would land on the plain ones. A mode recorded once is also kept as a mark ({@code ShardKeyFingerprints}).
 */
final class ShardAppModes {

    private static final Logger log = LoggerFactory.getLogger(ShardAppModes.class);

    private final ShardKeyFingerprints records;
    private final OpaquePermutation permutation;
    private final IdAllocRepository rows;
    /** The refusals last logged, so a refusal is logged when it starts or changes, not at every refresh. */
    private Map<Integer, String> logged = Map.of();

    /** @param permutation this server's key, or null when it has none */
    ShardAppModes(ShardKeyFingerprints records, OpaquePermutation permutation, IdAllocRepository rows) {
        this.records = records;
        this.permutation = permutation;
        this.rows = rows;
    }

    /** This server's mode for an app: {@code plain}, or its key's fingerprint with the app's range. */
    String ownMode(ShardApp app) {
        return permutation == null ? ShardKeyFingerprints.PLAIN
                : permutation.fingerprint() + "/max_limit_id=" + app.maxLimitId();
    }

    /**
     * Claims the mode of every app that has none recorded, and compares the rest.
     *
     * @return the apps this server must not serve, with the reason in words (app id to sentence)
     * @throws org.leafid.jdbc.shard.ShardTableException when the modes cannot be read or recorded:
     *     then no app's mode is known, and the caller keeps what it served before
     */
    synchronized Map<Integer, String> refusals(List<ShardApp> apps) {
        Map<Integer, String> recorded = records.all();
        Map<Integer, String> refused = new HashMap<>();
        for (ShardApp app : apps) {
            String own = ownMode(app);
            String mode = recorded.get(app.appId());
            if (mode == null) {
                String claim = permutation != null && issuedPlainly(app) ? ShardKeyFingerprints.PLAIN : own;
                if (records.check(app.appId(), claim) == ShardKeyFingerprints.Check.RECORDED) {
                    log.info("Shard mode: app {} issues {} IDs from now on (recorded in leaf_shard_key)", app.appId(),
                            claim.equals(ShardKeyFingerprints.PLAIN) ? "plain" : "opaque (key " + claim + ")");
                }
                mode = records.recorded(app.appId()).orElse(claim);
            }
            if (!mode.equals(own)) {
                refused.put(app.appId(), reason(app.appId(), mode, own));
            }
        }
        logChanges(refused, apps);
        return Map.copyOf(refused);
    }

    /**
     * Records this server's mode for an app about to be created (its rows are inserted after), unless
     * one is recorded already: an app created through a server is issued in that server's mode.
     *
     * @return null, or why this server may not create the app: another mode is recorded for its id
     */
    synchronized String claimForNewApp(int appId, long maxLimitId) {
        String own = ownMode(new ShardApp(appId, "", 1, maxLimitId, List.of()));
        if (records.check(appId, own) != ShardKeyFingerprints.Check.DIFFERS) {
            return null;
        }
        return reason(appId, records.recorded(appId).orElse("?"), own);
    }

    private static String reason(int appId, String recorded, String own) {
        if (recorded.equals(ShardKeyFingerprints.PLAIN)) {
            return "app " + appId + " issues plain IDs (recorded in leaf_shard_key), and this server has "
                    + "leaf.shard.opaque-key set: its permuted IDs would land on plain ones. Serve the app from servers "
                    + "without the key, or create a new app id for opaque IDs";
        }
        if (own.equals(ShardKeyFingerprints.PLAIN)) {
            return "app " + appId + "'s IDs are opaque (key " + recorded + " recorded in leaf_shard_key), and this "
                    + "server has no leaf.shard.opaque-key: its plain IDs would repeat them. Start it with the key the "
                    + "app's IDs are issued with";
        }
        return "app " + appId + "'s IDs are issued with key " + recorded + " (recorded in leaf_shard_key), and this "
                + "server's leaf.shard.opaque-key (or the app's max_limit_id) gives " + own + ": with another key or "
                + "range new IDs would repeat issued ones. Put back the key and max_limit_id the app was created "
                + "with; to change either, create a new app id";
    }

    private void logChanges(Map<Integer, String> refused, List<ShardApp> apps) {
        List<Integer> listed = apps.stream().map(ShardApp::appId).toList();
        refused.forEach((appId, reason) -> {
            if (!reason.equals(logged.get(appId))) {
                log.error("Shard mode: app {} is not served by this server (503 app-mode-conflict): {}", appId, reason);
            }
        });
        logged.keySet().stream().filter(appId -> !refused.containsKey(appId) && listed.contains(appId)).forEach(appId ->
                log.info("Shard mode: app {} is served again (its mode now matches this server's)", appId));
        logged = Map.copyOf(refused);
    }

    /**
     * Whether the app has reserved indexes: those were, or may have been, issued plainly. Its rows'
     * {@code max_id} says so, and so does {@code leaf_high_water}, which keeps the highest
     * {@code max_id} after the rows were deleted and inserted again at 0 by SQL.
     */
    private boolean issuedPlainly(ShardApp app) {
        return rows.rows(app.appId()).stream().anyMatch(row -> row.maxId() > 0)
                || rows.highWaterOfApp(app.appId()) > 0;
    }
}
