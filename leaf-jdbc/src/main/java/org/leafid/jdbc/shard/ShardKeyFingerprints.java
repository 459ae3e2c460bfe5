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
import org.leafid.jdbc.TableScripts;
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
 * <p>Each recorded mode is also kept as a mark in {@code leaf_high_water}
 * ({@code id_alloc:<app>:mode=<mode>}, high 0), the table whose rows outlive the rows they guard:
 * an app whose {@code id_alloc} and {@code leaf_shard_key} rows were deleted and inserted again by
 * SQL keeps the mode its IDs were issued in, and its row in {@code leaf_shard_key} is put back from
 * the mark, so a server of the other mode cannot claim it and issue over the old IDs.
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
    private final ModeMarks modeMarks;

    /** @param sessions Leaf's one session factory ({@code LeafSqlSessions}) */
    public ShardKeyFingerprints(SqlSessionFactory sessions) {
        this.sessions = sessions;
        this.url = PoolUrls.of(sessions);
        this.modeMarks = new ModeMarks(sessions, url);
    }

    /**
     * The mode recorded for the app, if any: its mark in {@code leaf_high_water} when there is one
     * (put back into {@code leaf_shard_key} when that row is gone), else its row in {@code leaf_shard_key}.
     */
    public Optional<String> recorded(int appId) {
        Optional<String> row = withTable("read the mode of app " + appId, () -> {
            try (SqlSession session = sessions.openSession(true)) {
                return Optional.ofNullable(session.getMapper(LeafShardMapper.class).fingerprint(appId));
            }
        });
        Optional<String> marked = Optional.ofNullable(modeMarks.read(appId + ":").get(appId));
        if (marked.isPresent() && row.isEmpty()) {
            restore(appId, marked.get());
        }
        return marked.isPresent() ? marked : row;
    }

    /**
     * Every recorded mode, by app id, as {@link #recorded} reads one: one read of each table for a
     * whole refresh of the app list. A mode found only as a mark is put back into
     * {@code leaf_shard_key}; one found only there (recorded before marks were kept) gets its mark.
     */
    public Map<Integer, String> all() {
        Map<Integer, String> rows = withTable("read the apps' modes", () -> {
            try (SqlSession session = sessions.openSession(true)) {
                Map<Integer, String> read = new HashMap<>();
                for (RecordedMode mode : session.getMapper(LeafShardMapper.class).all()) {
                    read.put(mode.appId(), mode.fingerprint());
                }
                return read;
            }
        });
        Map<Integer, String> marked = modeMarks.read("");
        marked.forEach((appId, mode) -> {
            if (!rows.containsKey(appId)) {
                restore(appId, mode);
            }
        });
        rows.forEach((appId, mode) -> {
            if (!marked.containsKey(appId)) {
                modeMarks.keep(appId, mode);
            }
        });
        Map<Integer, String> modes = new HashMap<>(rows);
        modes.putAll(marked);
        return modes;
    }

    /** Puts a mode found only as a mark back into {@code leaf_shard_key}; another server may have done so first. */
    private void restore(int appId, String mode) {
        try (SqlSession session = sessions.openSession(true)) {
            session.getMapper(LeafShardMapper.class).insertFingerprint(appId, mode);
            log.warn("Shard mode: app {} had no row in leaf_shard_key, but leaf_high_water keeps that its IDs were "
                    + "issued {}: the row was put back. Deleting an app's rows does not change its mode; a new mode "
                    + "needs a new app id", appId, mode.equals(PLAIN) ? "plain" : "opaque (key " + mode + ")");
        } catch (PersistenceException e) {
            if (!SqlFailures.duplicateKey(e)) {
                throw failure(e, "put back the mode of app " + appId);
            }
        }
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
            modeMarks.keep(appId, fingerprint);
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
            return TableScripts.readCreatingWhenMissing(sessions, "leaf_shard.sql", read, () -> log.info(
                    "Created the tables of {} that were missing (leaf_shard_key keeps each shard-mode app's mode, "
                            + "plain or opaque)", TABLE_SCRIPT));
        } catch (PersistenceException e) {
            throw failure(e, action);
        }
    }

    private ShardTableException failure(PersistenceException e, String action) {
        return new ShardTableException("Could not " + action + " in leaf_shard_key: "
                + SqlFailures.describe(e, url) + SqlFailures.hint(e, TABLE_SCRIPT), e);
    }
}
