package org.leafid.jdbc.shard;

import java.util.Optional;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.jdbc.LeafSqlSessions;
import org.leafid.jdbc.SqlFailures;

/**
 * The fingerprint of {@code leaf.shard.opaque-key} recorded per app in {@code leaf_shard_key}.
 * The opaque permutation depends on the key, so issuing an app's IDs with another key could
 * issue an ID again: the first start records the fingerprint, every later start compares, and
 * the server refuses to start on {@link Check#DIFFERS}. A recorded fingerprint is never
 * overwritten here; rotating a key means moving to a new app id.
 */
public final class ShardKeyFingerprints {

    /** The script that creates the table, named in the hint when it is missing. */
    public static final String TABLE_SCRIPT = "sql/leaf_shard.sql";

    private static final int MAX_FINGERPRINT = 128;

    /** What {@link #check} found. */
    public enum Check {
        /** None was recorded: this one is now. */
        RECORDED,
        /** The recorded one is this one. */
        MATCHES,
        /** Another key's fingerprint is recorded: issuing with this key could repeat IDs. */
        DIFFERS
    }

    private final SqlSessionFactory sessions;
    private final String url;

    /** @param sessions Leaf's one session factory ({@link LeafSqlSessions}) */
    public ShardKeyFingerprints(SqlSessionFactory sessions) {
        this.sessions = sessions;
        this.url = LeafSqlSessions.url(sessions);
    }

    /** The fingerprint recorded for the app, if any. */
    public Optional<String> recorded(int appId) {
        try (SqlSession session = sessions.openSession(true)) {
            return Optional.ofNullable(session.getMapper(LeafShardMapper.class).fingerprint(appId));
        } catch (PersistenceException e) {
            throw failure(e, "read the key fingerprint of app " + appId);
        }
    }

    /**
     * Records {@code fingerprint} for the app when none is, else compares it with the recorded one.
     * Two instances starting at once cannot both record: the primary key refuses the second
     * insert, which then compares with what the first recorded.
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
                throw failure(e, "record the key fingerprint of app " + appId);
            }
        }
        return compare(recorded(appId).orElseThrow(), fingerprint);
    }

    private static Check compare(String recorded, String fingerprint) {
        return recorded.equals(fingerprint) ? Check.MATCHES : Check.DIFFERS;
    }

    private ShardTableException failure(PersistenceException e, String action) {
        return new ShardTableException("Could not " + action + " in leaf_shard_key: "
                + SqlFailures.describe(e, url) + SqlFailures.hint(e, TABLE_SCRIPT), e);
    }
}
