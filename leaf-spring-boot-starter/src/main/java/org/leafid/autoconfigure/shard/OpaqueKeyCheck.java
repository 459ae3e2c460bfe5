package org.leafid.autoconfigure.shard;

import java.util.List;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.core.shard.OpaquePermutation;
import org.leafid.core.shard.ShardApp;
import org.leafid.jdbc.shard.ShardKeyFingerprints;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses an opaque key that is not the one an app's IDs were issued with. The permutation is a
 * function of the key and of the app's index range (its {@code max_limit_id}); either changed
 * maps new indexes onto IDs already issued, so both are recorded per app ({@code leaf_shard_key})
 * on first use and compared on every start and refresh.
 */
final class OpaqueKeyCheck {

    private static final Logger log = LoggerFactory.getLogger(OpaqueKeyCheck.class);

    private final ShardKeyFingerprints fingerprints;
    private final OpaquePermutation permutation;

    OpaqueKeyCheck(ShardKeyFingerprints fingerprints, OpaquePermutation permutation) {
        this.fingerprints = fingerprints;
        this.permutation = permutation;
    }

    /** What is recorded for an app: the key's fingerprint and the limit its range comes from. */
    String fingerprintOf(ShardApp app) {
        return permutation.fingerprint() + "/max_limit_id=" + app.maxLimitId();
    }

    /** @throws LeafConfigurationException naming the app when its recorded key or limit differs */
    void check(List<ShardApp> apps) {
        for (ShardApp app : apps) {
            String fingerprint = fingerprintOf(app);
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
}
