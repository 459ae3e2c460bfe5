package org.leafid.jdbc.reservation;

import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.Sleeper;
import org.leafid.jdbc.PoolUrls;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.SqlRetry;

/**
 * The one way a block is reserved from a table of {@code max_id} rows ({@code leaf_alloc},
 * {@code id_alloc}): tried again while the database answers "try again" ({@link SqlRetry}); made
 * only on the database this fleet recorded ({@link StoreIdentityGuard}: another one is adopted,
 * its rows moved forward, and the block reserved again; a copy under another name is refused);
 * in one statement where the database can, else in Leaf's transaction; served only when it starts
 * above the row's high-water mark ({@link HighWaterMarks}), a row found below being moved past it
 * first. The table says only how its row moves and what its block is ({@link ReservationSteps}).
 */
public final class GuardedReservation {

    private final SqlSessionFactory sessions;
    private final String table;
    private final String tableScript;
    private final String url;
    /** Where the database is configured ({@code leaf.jdbc} or {@code leaf.jdbc.stores[k]}), for hints. */
    private final String key;
    private final HighWaterMarks marks;
    private final SqlRetry retry;
    private final StoreIdentityGuard identity;
    /** Whether the database reserves in one statement (a one-trip mapper is registered). */
    private final boolean oneTrip;

    /**
     * @param table the table reserved from, as messages and meters name it
     * @param tableScript the script that creates it, named in hints
     * @param oneTripMapper the mapper registered only where the database reserves in one statement
     */
    public GuardedReservation(SqlSessionFactory sessions, String table, String tableScript, Class<?> oneTripMapper,
            Sleeper sleeper, StoreIdentityGuard identity) {
        this.sessions = sessions;
        this.table = table;
        this.tableScript = tableScript;
        this.identity = identity;
        this.url = PoolUrls.of(sessions);
        this.key = PoolUrls.configurationKey(sessions);
        this.marks = new HighWaterMarks(sessions, table);
        this.retry = new SqlRetry(table, sleeper);
        this.oneTrip = sessions.getConfiguration().hasMapper(oneTripMapper);
    }

    /** Reserves one block of the row the steps name. */
    public <B> B reserve(ReservationSteps<B> steps) {
        return retry.run(() -> reserveOnDatabaseRecorded(steps));
    }

    /**
     * A reservation made on the database this fleet recorded: one made on another (a failover, a
     * restore) is not served; that database is adopted (its rows moved forward) and the block reserved again.
     */
    private <B> B reserveOnDatabaseRecorded(ReservationSteps<B> steps) {
        for (int adoptions = 0; ; adoptions++) {
            try {
                return reserveOnce(steps);
            } catch (StoreIdentityGuard.Copied copied) {
                throw steps.failure(": " + copied.getMessage()
                        + "; see docs/databases.md, \"A copy is not the original\"", copied);
            } catch (StoreIdentityGuard.Changed changed) {
                if (adoptions == 2) {
                    throw steps.failure(": " + changed.getMessage() + ", even after adopting it twice; check that "
                            + key + ".url reaches one database", changed);
                }
                try {
                    identity.adopt();
                } catch (PersistenceException e) {
                    throw steps.failure(": " + changed.getMessage() + ", and moving its rows forward failed: "
                            + explain(e), e);
                }
            }
        }
    }

    private <B> B reserveOnce(ReservationSteps<B> steps) {
        try {
            if (oneTrip && steps.oneTrip()) {
                B block = reserveInOneTrip(steps);
                if (block != null) {
                    return block;
                }
            }
            return reserveAboveMark(steps);
        } catch (HighWaterMarks.MissingTableException missing) {
            boolean created;
            try {
                created = marks.createIfNeverSeen();
            } catch (PersistenceException e) {
                throw steps.failure(": leaf_high_water is missing and could not be created: "
                        + SqlFailures.describe(e, url) + "; create it with " + HighWaterMarks.TABLE_SCRIPT
                        + " in the database of " + key + ".url", e);
            }
            if (!created) {
                throw steps.failure(": " + marks.vanished(), missing);
            }
            return reserveAboveMark(steps);
        }
    }

    /**
     * The common case in one statement: the block, when it starts above the row's mark; null for
     * everything the transaction below must decide (a missing or refused row, a row below its mark).
     * A block reserved below the mark is left unused: the transaction reserves the next one and
     * moves it past the mark.
     */
    private <B> B reserveInOneTrip(ReservationSteps<B> steps) {
        OneTripReservation reserved;
        try (SqlSession session = sessions.openSession(true)) {
            identity.checkFirstTime(session);
            reserved = steps.reserveInOneTrip(session, marks.name(steps.markKey()));
        } catch (PersistenceException e) {
            if (SqlFailures.classify(e) == SqlFailures.Kind.MISSING_TABLE) {
                throw new HighWaterMarks.MissingTableException(e);
            }
            throw steps.failure(" in " + table + ": " + explain(e), e);
        }
        marks.seen();
        if (reserved == null) {
            return null;
        }
        // The block is committed, but served only if the server that ran the statement is the one recorded.
        identity.check(reserved.identity(), reserved.recorded(), reserved.recordedName());
        return reserved.aboveMark() ? steps.block(reserved.maxId(), reserved.step()) : null;
    }

    /**
     * Leaf's UPDATE and SELECT, then the high-water check, in one transaction: the block ending at
     * the new {@code max_id} is served only when it starts above the highest {@code max_id} this
     * fleet reserved for the row before, whatever happened to the row since; a row found below is
     * moved past the mark first.
     */
    private <B> B reserveAboveMark(ReservationSteps<B> steps) {
        try (SqlSession session = sessions.openSession(false)) {
            ReservationSteps.Advanced row;
            try {
                row = steps.advance(session);
            } catch (PersistenceException failed) {
                throw failed;
            } catch (RuntimeException refused) {
                // The table's refusal (unknown, exhausted) is an answer: what the statements did stands.
                session.commit();
                throw refused;
            }
            long size = steps.size(row.step());
            long maxId = row.maxId();
            String key = steps.markKey();
            // With the identity, in this transaction: the block commits on the server checked, or not at all.
            long mark = identity.markVerified(session, marks.name(key));
            marks.seen();
            if (maxId - size < mark) {
                long start;
                try {
                    start = steps.startAbove(mark, size);
                } catch (ArithmeticException noRoom) {
                    throw steps.noRoomAbove(row, mark);
                }
                if (start > Long.MAX_VALUE - size) {
                    throw steps.noRoomAbove(row, mark);
                }
                steps.moveMaxIdTo(session, start + size);
                marks.movedBack(key, maxId - size, mark, start + size);
                maxId = start + size;
            }
            marks.raise(session, key, maxId, mark);
            session.commit();
            return steps.block(maxId, row.step());
        } catch (PersistenceException e) {
            throw steps.failure(" in " + table + ": " + explain(e), e);
        }
    }

    /** The retries of reservations the database answered "try again", for the meters. */
    public SqlRetry retries() {
        return retry;
    }

    /** The check of the database's identity, for the meters. */
    public StoreIdentityGuard identity() {
        return identity;
    }

    /** The high-water marks of the rows, for the admin API's check and the meters. */
    public HighWaterMarks marks() {
        return marks;
    }

    /** The database's url as messages show it (without password), or the pool's name. */
    public String url() {
        return url;
    }

    /** A failure of a statement on this table, with the database named and the hint it needs. */
    public String explain(PersistenceException e) {
        return SqlFailures.describe(e, url) + SqlFailures.hint(e, tableScript, key);
    }
}
