package org.leafid.jdbc.shard;

import java.util.HashMap;
import java.util.Map;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.jdbc.reservation.HighWaterMapper;
import org.leafid.jdbc.reservation.HighWaterMarks;
import org.leafid.jdbc.SqlFailures;

/**
 * Each shard-mode app's mode as a row of {@code leaf_high_water}, named
 * {@code id_alloc:<app>:mode=<plain or fingerprint>} with high 0: rows of that table are only ever
 * added or raised, and are kept when an app's rows are deleted, so the mode outlives an app
 * re-created by SQL (see {@link ShardKeyFingerprints}). The name starts as the app's shard marks do,
 * so whatever forgets an app's marks forgets its mode with them.
 */
final class ModeMarks {

    private static final String PREFIX = "id_alloc:";
    private static final String MODE = ":mode=";

    private final SqlSessionFactory sessions;
    private final String url;

    ModeMarks(SqlSessionFactory sessions, String url) {
        this.sessions = sessions;
        this.url = url;
    }

    /**
     * The modes marked, by app id: of every app for {@code ""}, of one for {@code "<app>:"}. Empty
     * when {@code leaf_high_water} does not exist yet: no app was reserved by this fleet then, and
     * the reservations say what to do when it is missing.
     */
    Map<Integer, String> read(String appPrefix) {
        Map<Integer, String> modes = new HashMap<>();
        try (SqlSession session = sessions.openSession(true)) {
            for (String name : session.getMapper(HighWaterMapper.class).namesLike(PREFIX + appPrefix + "%")) {
                int mode = name.indexOf(MODE);
                if (mode > PREFIX.length()) {
                    String appId = name.substring(PREFIX.length(), mode);
                    if (appId.chars().allMatch(Character::isDigit)) {
                        // Two marks of one app (a mode changed by hand before marks were kept): the first stands.
                        modes.putIfAbsent(Integer.parseInt(appId), name.substring(mode + MODE.length()));
                    }
                }
            }
        } catch (PersistenceException e) {
            if (SqlFailures.classify(e) != SqlFailures.Kind.MISSING_TABLE) {
                throw failure(e, "read the apps' mode marks");
            }
        }
        return modes;
    }

    /** Adds the app's mode mark when it is missing; a mark already there (another server's) is kept. */
    void keep(int appId, String mode) {
        try (SqlSession session = sessions.openSession(true)) {
            session.getMapper(HighWaterMapper.class).insert(PREFIX + appId + MODE + mode, 0);
        } catch (PersistenceException e) {
            if (!SqlFailures.duplicateKey(e) && SqlFailures.classify(e) != SqlFailures.Kind.MISSING_TABLE) {
                throw failure(e, "mark the mode of app " + appId);
            }
        }
    }

    private ShardTableException failure(PersistenceException e, String action) {
        return new ShardTableException("Could not " + action + " in leaf_high_water: " + SqlFailures.describe(e, url)
                + SqlFailures.hint(e, HighWaterMarks.TABLE_SCRIPT), e);
    }
}
