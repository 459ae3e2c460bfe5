package org.leafid.autoconfigure.shard;

import java.util.List;
import java.util.Optional;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.core.shard.OpaquePermutation;
import org.leafid.core.shard.ShardApp;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.shard.IdAllocRepository;
import org.leafid.jdbc.shard.ShardKeyFingerprints;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps plain and opaque IDs of an app apart. The permutation is a function of the key and of the
 * app's index range (its {@code max_limit_id}); either changed maps new indexes onto IDs already
 * issued, so both are recorded per app ({@code leaf_shard_key}) on first use and compared on every
 * start and refresh. Two more ways to repeat an ID are refused the same way: taking a key up for an
 * app that has already issued plain IDs (a permuted index can land on an index issued plainly), and
 * a server without the key serving an app whose IDs are opaque.
 */
final class OpaqueKeyCheck {

    private static final Logger log = LoggerFactory.getLogger(OpaqueKeyCheck.class);

    private final ShardKeyFingerprints fingerprints;
    private final OpaquePermutation permutation;
    private final IdAllocRepository rows;

    /** @param permutation this server's key, or null when it has none */
    OpaqueKeyCheck(ShardKeyFingerprints fingerprints, OpaquePermutation permutation, IdAllocRepository rows) {
        this.fingerprints = fingerprints;
        this.permutation = permutation;
        this.rows = rows;
    }

    /** What is recorded for an app: the key's fingerprint and the limit its range comes from. */
    String fingerprintOf(ShardApp app) {
        return permutation.fingerprint() + "/max_limit_id=" + app.maxLimitId();
    }

    /** @throws LeafConfigurationException naming the app when issuing could repeat one of its IDs */
    void check(List<ShardApp> apps) {
        for (ShardApp app : apps) {
            if (permutation == null) {
                recordedWithoutKey(app.appId()).ifPresent(recorded -> {
                    throw new LeafConfigurationException("leaf.shard.opaque-key", "is not set, but app "
                            + app.appId() + "'s IDs are opaque (key " + recorded + " recorded): plain IDs would "
                            + "repeat them.", "Start every server of app " + app.appId() + " with the key its IDs "
                            + "were issued with.");
                });
                continue;
            }
            String fingerprint = fingerprintOf(app);
            if (fingerprints.recorded(app.appId()).isEmpty() && issuedPlainly(app)) {
                throw new LeafConfigurationException("leaf.shard.opaque-key", "cannot be taken up by app "
                        + app.appId() + ", which has already issued plain IDs (max_id above 0 in id_alloc): "
                        + "permuted indexes would land on them.", "Keep app " + app.appId() + " plain, and create "
                        + "a new app id (POST /api/admin/apps) for opaque IDs.");
            }
            switch (fingerprints.check(app.appId(), fingerprint)) {
                case RECORDED -> log.info("Shard mode: app {} now issues opaque IDs with key {}", app.appId(),
                        fingerprint);
                case MATCHES -> { }
                case DIFFERS -> throw new LeafConfigurationException("leaf.shard.opaque-key", "does not match the "
                        + "key (or max_limit_id) app " + app.appId() + "'s IDs were issued with: recorded "
                        + fingerprints.recorded(app.appId()).orElse("?") + ", configured " + fingerprint + ". With "
                        + "another key or range new IDs would repeat issued ones.", "Put back the key and "
                        + "max_limit_id the app was created with; to change either, create a new app id.");
            }
        }
    }

    /**
     * The fingerprint recorded for an app, read by a server without a key. Without the table
     * ({@code sql/leaf_shard.sql} not run: a memory-buffer deployment need not) no key can have been
     * recorded either, so that is "none".
     */
    private Optional<String> recordedWithoutKey(int appId) {
        try {
            return fingerprints.recorded(appId);
        } catch (RuntimeException e) {
            if (SqlFailures.classify(e) == SqlFailures.Kind.MISSING_TABLE) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Whether any shard of the app has reserved indexes: those were, or may have been, issued plainly. */
    private boolean issuedPlainly(ShardApp app) {
        return rows.rows(app.appId()).stream().anyMatch(row -> row.maxId() > 0);
    }
}
