package org.leafid.jdbc.reservation;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.TableScripts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The highest {@code max_id} this fleet has reserved, per segment tag and per shard-mode (app,
 * shard), in {@code leaf_high_water}: a table of Leaf's own, so the mark survives the deletion of
 * the row it guards and every restart. Every block a reservation makes is checked against it
 * before it is served: a row whose {@code max_id} went back (an operator's edit, a row deleted and
 * inserted again, an app re-created) would hand out numbers that were issued before. Such a row is
 * moved past the mark in the same transaction, with a WARN and a count, so the block served is new
 * and every other server (Meituan Leaf's among them) reserves above it from then on.
 *
 * <p>Every method that takes a session runs inside the caller's reservation transaction, after
 * its UPDATE locked the row: reservations of one tag (or app and shard) by this fleet are
 * serialised by that lock, so reading, checking and raising the mark need no locking of their own.
 *
 * <p>The table is created when missing only by a process that has never found it
 * ({@link #createIfNeverSeen}: a first start on a database that holds Meituan Leaf's tables only),
 * once, with a WARN. A table that disappears under a process that used it is never re-created
 * empty (an empty table would let a row set back repeat numbers): reservations fail naming the
 * table and the script until an operator puts it back.
 */
public final class HighWaterMarks {

    /** The script that creates the table, named when it is missing and cannot be created. */
    public static final String TABLE_SCRIPT = SqlDialect.scripts("leaf_high_water.sql");

    private static final Logger log = LoggerFactory.getLogger(HighWaterMarks.class);
    private static final Duration LOG_INTERVAL = Duration.ofMinutes(1);

    private final SqlSessionFactory sessions;
    private final String table;
    private final LongAdder movedBack = new LongAdder();
    /** When each name's last WARN was written ({@link System#nanoTime}), so a loop of loads writes one a minute. */
    private final Map<String, Long> loggedAt = new ConcurrentHashMap<>();
    /** Whether this process has read or written the table: from then on a missing table was dropped, not new. */
    private volatile boolean seen;

    /**
     * @param sessions Leaf's one session factory ({@code LeafSqlSessions})
     * @param table the table whose rows are marked ({@code leaf_alloc} or {@code id_alloc}): the
     *     names' prefix, and what the log names
     */
    public HighWaterMarks(SqlSessionFactory sessions, String table) {
        this.sessions = sessions;
        this.table = table;
    }

    /** The name of a segment tag's mark, or of an (app, shard)'s. */
    public String name(String key) {
        return table + ":" + key;
    }

    /** Raises the mark to {@code reservedMaxId} within the caller's reservation transaction; never lowers it. */
    public void raise(SqlSession session, String key, long reservedMaxId, long markRead) {
        HighWaterMapper mapper = session.getMapper(HighWaterMapper.class);
        if (markRead == 0 && mapper.high(name(key)) == null) {
            mapper.insert(name(key), reservedMaxId);
        } else if (reservedMaxId > markRead) {
            mapper.raise(name(key), reservedMaxId);
        }
    }

    /**
     * The highest mark of a key, or of every key that starts with {@code keyPrefix} when it ends
     * with {@code %}, read on its own (the admin API's check before it creates a row); 0 when none
     * is recorded or the table does not exist yet (then nothing was ever reserved by this fleet).
     */
    public long highest(String keyPattern) {
        try (SqlSession session = sessions.openSession(true)) {
            HighWaterMapper mapper = session.getMapper(HighWaterMapper.class);
            Long high = keyPattern.endsWith("%") ? mapper.highestLike(name(keyPattern)) : mapper.high(name(keyPattern));
            return high == null ? 0 : high;
        } catch (PersistenceException e) {
            if (SqlFailures.classify(e) == SqlFailures.Kind.MISSING_TABLE) {
                return 0;
            }
            throw e;
        }
    }

    /** The table was read or written by a statement that did not fail (a one-statement reservation). */
    public void seen() {
        seen = true;
    }

    /**
     * Creates the table when this process has never found it, in a session of its own; another
     * thread's creation counts. A table this process used before is not created again.
     *
     * @return true when the table is there now (try the reservation again); false when it was
     *     there before and disappeared: the caller refuses with {@link #vanished()}
     * @throws PersistenceException when it cannot be created (the caller names {@link #TABLE_SCRIPT})
     */
    public synchronized boolean createIfNeverSeen() {
        if (seen) {
            return false;
        }
        TableScripts.run(sessions, "leaf_high_water.sql");
        seen = true;
        log.warn("Created table leaf_high_water, empty: it was missing at this server's first reservation (a "
                + "database that held Meituan Leaf's tables only). It keeps the highest max_id reserved per tag and "
                + "per app and shard; if it existed before and was dropped, the marks it held are lost: check that "
                + "no {} row was set back. See {}", table, TABLE_SCRIPT);
        return true;
    }

    /** Why nothing is reserved once the table disappeared under this process. */
    public String vanished() {
        return "leaf_high_water (the highest max_id this fleet reserved per tag and per app and shard) has "
                + "disappeared while this server used it, and is not re-created empty: empty marks would let a row "
                + "that was set back repeat numbers. Restore it from a backup, or create it with " + TABLE_SCRIPT
                + " once no " + table + " row was set back";
    }

    /**
     * A block would have started at or below the mark: counts it and says so once a minute per key.
     *
     * @param found the row's {@code max_id} before this reservation (as the operator left it)
     * @param movedTo the {@code max_id} the row was moved to
     */
    public void movedBack(String key, long found, long mark, long movedTo) {
        movedBack.increment();
        long now = System.nanoTime();
        Long last = loggedAt.get(key);
        if (last != null && now - last < LOG_INTERVAL.toNanos()) {
            return;
        }
        loggedAt.put(key, now);
        log.warn("{} '{}': max_id was {}, below {}, the highest max_id this fleet has reserved for it (kept in "
                + "leaf_high_water): the row was set back or deleted and inserted again, and its next numbers "
                + "were issued before. Moved max_id to {}, so that no number is issued twice; check who edits "
                + "{} (at most one line a minute per key)", table, key, found, mark, movedTo, table);
    }

    /** How many reservations found their row below the mark, since start. */
    public long movedBackCount() {
        return movedBack.sum();
    }

    /** The table whose rows are marked. */
    public String table() {
        return table;
    }

    /** {@code leaf_high_water} does not exist: create it and try again. */
    public static final class MissingTableException extends RuntimeException {

        public MissingTableException(PersistenceException cause) {
            super("table leaf_high_water does not exist", cause);
        }
    }
}
