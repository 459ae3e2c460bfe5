package org.leafid.jdbc.shard;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.jdbc.PoolUrls;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.shard.LeafShardMapper.RecordedMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each app's mode, decided once and recorded in {@code leaf_shard_key}: {@link #PLAIN}, or the
 * fingerprint of the {@code leaf.shard.opaque-key} (and range) its IDs are permuted with. Plain
 * and opaque IDs of one app, or opaque IDs of two keys, could land on each other, so the first
 * server to see an app claims it with one INSERT that only one server can win (the primary key
 * refuses every other), and every server compares its own mode with the recorded one before it
 * serves the app. A recorded mode is never overwritten here; changing it means a new app id.
 *
 * <p>The table is created on first use when missing, so that a deployment that never ran
 * {@code sql/leaf_shard.sql} records modes all the same.
 */
public final class ShardKeyFingerprints {

    /** The script that creates the table, named in the hint when it is missing. */
    public static final String TABLE_SCRIPT = SqlDialect.scripts("leaf_shard.sql");
    /** The mode recorded for an app whose IDs carry their indexes as they are. */
    public static final String PLAIN = "plain";

    private static final Logger log = LoggerFactory.getLogger(ShardKeyFingerprints.class);
    private static final int MAX_FINGERPRINT = 128;

    /** What {@link #check} found. */
    public enum Check {
        /** None was recorded: this one is now. */
        RECORDED,
        /** The recorded one is this one. */
        MATCHES,
        /** Another mode is recorded: issuing in this one could repeat IDs. */
        DIFFERS
    }

    private final SqlSessionFactory sessions;
    private final String url;

    /** @param sessions Leaf's one session factory ({@code LeafSqlSessions}) */
    public ShardKeyFingerprints(SqlSessionFactory sessions) {
        this.sessions = sessions;
        this.url = PoolUrls.of(sessions);
    }

    /** The mode recorded for the app, if any. */
    public Optional<String> recorded(int appId) {
        return withTable("read the mode of app " + appId, () -> {
            try (SqlSession session = sessions.openSession(true)) {
                return Optional.ofNullable(session.getMapper(LeafShardMapper.class).fingerprint(appId));
            }
        });
    }

    /** Every recorded mode, by app id: one read for a whole refresh of the app list. */
    public Map<Integer, String> all() {
        return withTable("read the apps' modes", () -> {
            try (SqlSession session = sessions.openSession(true)) {
                Map<Integer, String> modes = new HashMap<>();
                for (RecordedMode mode : session.getMapper(LeafShardMapper.class).all()) {
                    modes.put(mode.appId(), mode.fingerprint());
                }
                return modes;
            }
        });
    }

    /**
     * Records {@code fingerprint} for the app when none is, else compares it with the recorded one.
     * Two instances at once cannot both record: the primary key refuses the second insert, which
     * then compares with what the first recorded.
     */
    public Check check(int appId, String fingerprint) {
        if (fingerprint == null || fingerprint.isBlank() || fingerprint.length() > MAX_FINGERPRINT) {
            throw new IllegalArgumentException("a fingerprint must be 1.." + MAX_FINGERPRINT + " characters");
        }
        Optional<String> recorded = recorded(appId);
        if (recorded.isPresent()) {
            return compare(recorded.get(), fingerprint);
        }
        try (SqlSession session = sessions.openSession(true)) {
            session.getMapper(LeafShardMapper.class).insertFingerprint(appId, fingerprint);
            return Check.RECORDED;
        } catch (PersistenceException e) {
            if (!SqlFailures.duplicateKey(e)) {
                throw failure(e, "record the mode of app " + appId);
            }
        }
        return compare(recorded(appId).orElseThrow(), fingerprint);
    }

    private static Check compare(String recorded, String fingerprint) {
        return recorded.equals(fingerprint) ? Check.MATCHES : Check.DIFFERS;
    }

    /** Runs {@code read}; when the table is missing, creates it and runs it again. */
    private <T> T withTable(String action, Supplier<T> read) {
        try {
            return read.get();
        } catch (PersistenceException e) {
            if (SqlFailures.classify(e) != SqlFailures.Kind.MISSING_TABLE) {
                throw failure(e, action);
            }
        }
        try (SqlSession session = sessions.openSession(true)) {
            session.getMapper(LeafShardMapper.class).createKeyTable();
        } catch (PersistenceException e) {
            throw failure(e, "create the table leaf_shard_key (it is missing)");
        }
        log.info("Created table leaf_shard_key (each shard-mode app's mode, plain or opaque; see {})", TABLE_SCRIPT);
        try {
            return read.get();
        } catch (PersistenceException e) {
            throw failure(e, action);
        }
    }

    private ShardTableException failure(PersistenceException e, String action) {
        return new ShardTableException("Could not " + action + " in leaf_shard_key: "
                + SqlFailures.describe(e, url) + SqlFailures.hint(e, TABLE_SCRIPT), e);
    }
}
