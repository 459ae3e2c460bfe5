package org.leafid.jdbc.stores;

import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.reservation.HighWaterMapper;
import org.leafid.jdbc.reservation.StoreIdentityMapper;

/**
 * What one store of several records about the fleet it belongs to, in its {@code leaf_high_water}
 * next to its store identity: a token of its own made when it joined, its place in
 * {@code leaf.jdbc.stores}, the stripe width, the numbering it serves (generation, base, members),
 * whether a renumbering froze it, and the tokens of the others as it last saw them. A copy of a
 * store (a restore, a clone) carries the record of the store it copies, so it is found wherever it
 * is listed; a new, empty database in place of a store carries none while the others name one.
 */
final class FleetRecord {

    static final String PREFIX = "leaf:fleet:";
    static final String TOKEN = PREFIX + "token";
    static final String PLACE = PREFIX + "index";
    static final String WIDTH = PREFIX + "width";
    static final String GENERATION = PREFIX + "generation";
    static final String BASE = PREFIX + "base";
    static final String MEMBERS = PREFIX + "members";
    static final String FROZEN = PREFIX + "frozen";
    static final String OTHER = PREFIX + "store:";
    /** The marks of the segment tags' rows, which a store's highest number includes. */
    static final String TAG_MARKS = "leaf_alloc:%";

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * One store's record as read.
     *
     * @param numbering null when the store has no record
     * @param others the token recorded for each other store, by its place
     */
    record Read(Long token, Long place, Long width, Numbering numbering, boolean frozen, Map<Integer, Long> others) {

        boolean empty() {
            return token == null && place == null;
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
            Long generation = values.get(GENERATION);
            Numbering numbering = generation == null || values.get(WIDTH) == null ? null
                    : new Numbering(generation, values.getOrDefault(BASE, 0L), values.get(WIDTH),
                            values.getOrDefault(MEMBERS, 0L));
            return new Read(values.get(TOKEN), values.get(PLACE), values.get(WIDTH), numbering,
                    values.getOrDefault(FROZEN, 0L) != 0, Map.copyOf(others));
        }
    }

    /**
     * Records a store joining the fleet at {@code place}, serving {@code numbering}, with a new token.
     *
     * @return false when another server recorded it at the same moment: read it again
     */
    static boolean create(SqlSessionFactory sessions, int place, Numbering numbering) {
        try (SqlSession session = sessions.openSession(false)) {
            HighWaterMapper marks = session.getMapper(HighWaterMapper.class);
            marks.insert(TOKEN, RANDOM.nextLong() & Long.MAX_VALUE);
            marks.insert(PLACE, place);
            marks.insert(WIDTH, numbering.width());
            marks.insert(GENERATION, numbering.generation());
            marks.insert(BASE, numbering.base());
            marks.insert(MEMBERS, numbering.members());
            marks.insert(FROZEN, 0);
            session.commit();
            return true;
        } catch (PersistenceException e) {
            if (SqlFailures.duplicateKey(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Stops the store's reservations for a renumbering: once this commits, every reservation that
     * read the old generation has committed, and every later one reads the store frozen.
     */
    static void freeze(SqlSessionFactory sessions) {
        try (SqlSession session = sessions.openSession(false)) {
            session.getMapper(FleetMapper.class).lockGeneration();
            put(session, FROZEN, 1);
            session.commit();
        }
    }

    /** The highest number any block of the store reached (its rows, its marks), read after it froze. */
    static long highestNumber(SqlSessionFactory sessions) {
        try (SqlSession session = sessions.openSession(true)) {
            return session.getMapper(FleetMapper.class).highestNumber(TAG_MARKS);
        }
    }

    /** Records the store's new numbering and lets its reservations go on under it. */
    static void serve(SqlSessionFactory sessions, Numbering numbering) {
        try (SqlSession session = sessions.openSession(false)) {
            session.getMapper(FleetMapper.class).lockGeneration();
            put(session, GENERATION, numbering.generation());
            put(session, BASE, numbering.base());
            put(session, MEMBERS, numbering.members());
            put(session, FROZEN, 0);
            session.commit();
        }
    }

    /** Records the token another store has now, as this one saw it. */
    static void recordOther(SqlSessionFactory sessions, int place, long token) {
        try (SqlSession session = sessions.openSession(false)) {
            put(session, OTHER + place, token);
            session.commit();
        } catch (PersistenceException e) {
            if (!SqlFailures.duplicateKey(e)) {
                throw e;
            }
            // Another server recorded it at the same moment: the same token, read from the same store.
        }
    }

    private static void put(SqlSession session, String name, long value) {
        if (session.getMapper(StoreIdentityMapper.class).record(name, value) == 0) {
            session.getMapper(HighWaterMapper.class).insert(name, value);
        }
    }
}
