package org.leafid.jdbc.stores;

import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.segment.Stripes;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.reservation.HighWaterMapper;
import org.leafid.jdbc.reservation.StoreIdentityMapper;

/**
 * What one store of several records about the fleet it belongs to, in its {@code leaf_high_water}
 * next to its store identity: how many stores, its own place, the numbering's stripes, a token of
 * its own made when it joined, and the tokens of the others as it last saw them. A copy of a store
 * (a restore, a clone) carries the record of the store it copies, so it is found wherever it is
 * listed; a new, empty database in place of a store carries none while the others name one.
 */
final class FleetRecord {

    static final String PREFIX = "leaf:fleet:";
    static final String STORES = PREFIX + "stores";
    static final String INDEX = PREFIX + "index";
    static final String TOKEN = PREFIX + "token";
    static final String BASE = PREFIX + "base";
    static final String WIDTH = PREFIX + "width";
    static final String OTHER = PREFIX + "store:";

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * One store's record as read.
     *
     * @param others the token recorded for each other store, by its index
     */
    record Read(Long stores, Long index, Long token, Long base, Long width, Map<Integer, Long> others) {

        boolean empty() {
            return stores == null && index == null && token == null;
        }
    }

    private FleetRecord() {}

    static Read read(SqlSessionFactory sessions) {
        try (SqlSession session = sessions.openSession(true)) {
            HighWaterMapper marks = session.getMapper(HighWaterMapper.class);
            Map<String, Long> values = new HashMap<>();
            for (String name : marks.namesLike(PREFIX + "%")) {
                values.put(name, marks.high(name));
            }
            Map<Integer, Long> others = new HashMap<>();
            values.forEach((name, value) -> {
                if (name.startsWith(OTHER)) {
                    others.put(Integer.parseInt(name.substring(OTHER.length())), value);
                }
            });
            return new Read(values.get(STORES), values.get(INDEX), values.get(TOKEN), values.get(BASE),
                    values.get(WIDTH), Map.copyOf(others));
        }
    }

    /**
     * Records a store joining the fleet, with a new token of its own.
     *
     * @return false when another server recorded it at the same moment: read it again
     */
    static boolean create(SqlSessionFactory sessions, Stripes stripes) {
        try (SqlSession session = sessions.openSession(false)) {
            HighWaterMapper marks = session.getMapper(HighWaterMapper.class);
            marks.insert(TOKEN, RANDOM.nextLong() & Long.MAX_VALUE);
            marks.insert(STORES, stripes.stores());
            marks.insert(INDEX, stripes.index());
            marks.insert(BASE, stripes.base());
            marks.insert(WIDTH, stripes.width());
            session.commit();
            return true;
        } catch (PersistenceException e) {
            if (SqlFailures.duplicateKey(e)) {
                return false;
            }
            throw e;
        }
    }

    /** Records the token another store has now, as this one saw it. */
    static void recordOther(SqlSessionFactory sessions, int index, long token) {
        try (SqlSession session = sessions.openSession(false)) {
            String name = OTHER + index;
            if (session.getMapper(StoreIdentityMapper.class).record(name, token) == 0) {
                session.getMapper(HighWaterMapper.class).insert(name, token);
            }
            session.commit();
        } catch (PersistenceException e) {
            if (!SqlFailures.duplicateKey(e)) {
                throw e;
            }
            // Another server recorded it at the same moment: the same token, read from the same store.
        }
    }
}
