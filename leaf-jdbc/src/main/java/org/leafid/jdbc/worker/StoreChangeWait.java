package org.leafid.jdbc.worker;

import java.time.Duration;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.Durations;
import org.leafid.core.Sleeper;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.jdbc.reservation.HighWaterMarks;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.reservation.StoreIdentityMapper;
import org.leafid.jdbc.TableScripts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a worker-id start from a database row does first, so that a failover cannot give one worker
 * id to two live processes. A copy promoted after a failover may lack the last rows written before
 * it: a row inserted for a process that is issuing with its id right now, whose AUTO_INCREMENT id
 * the copy would hand to the next start. That process learns it at its next row write or check
 * (every report interval): it puts its row back, or stops issuing when the id is another's by then.
 *
 * <p>So every start checks that the database is the one this fleet recorded
 * ({@link StoreIdentityGuard}; a new one is adopted, which records when), and while less than
 * {@code holderLease} has passed since the last change, by the database's clock, waits for the rest
 * of it before it reads or inserts its row: by then every holder from before the failover has
 * written, and put its row back, or stopped.
 */
public final class StoreChangeWait {

    private static final Logger log = LoggerFactory.getLogger(StoreChangeWait.class);

    private final SqlSessionFactory sessions;
    private final StoreIdentityGuard guard;
    private final Duration holderLease;
    private final Sleeper sleeper;

    /**
     * @param holderLease how long a holder may go without writing or checking its row: several of
     *     its report intervals
     */
    public StoreChangeWait(SqlSessionFactory sessions, StoreIdentityGuard guard, Duration holderLease,
            Sleeper sleeper) {
        this.sessions = sessions;
        this.guard = guard;
        this.holderLease = holderLease;
        this.sleeper = sleeper;
    }

    /** The real clock, and the guard's default skip for a process that has none of its own. */
    public static StoreChangeWait of(SqlSessionFactory sessions, Duration holderLease) {
        return new StoreChangeWait(sessions, new StoreIdentityGuard(sessions, StoreIdentityGuard.DEFAULT_SKIP_BLOCKS),
                holderLease, Sleeper.system());
    }

    /**
     * Checks the database, adopting a new one, and waits out the holder lease after its last change.
     *
     * @param mode the worker-id mode, for the log and errors
     * @throws WorkerIdUnavailableException when the check cannot be made; a {@link PersistenceException}
     *     when the database cannot be reached (the caller may start from its cache)
     */
    public void await(String mode) {
        long remaining = remainingMillis(mode);
        if (remaining <= 0) {
            return;
        }
        log.warn("Snowflake mode {}: the database Leaf writes to changed less than {} ago (a failover, or a restore). "
                + "A worker id handed out just before may be missing from it while its holder still issues, so this "
                + "start waits {} ms for every holder to write its row and notice", mode, Durations.format(holderLease),
                remaining);
        try {
            sleeper.sleepMillis(remaining);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkerIdUnavailableException("Snowflake mode " + mode + ": interrupted while waiting for the "
                    + "holders of worker ids after the database changed", e);
        }
    }

    private long remainingMillis(String mode) {
        boolean created = false;
        for (int attempt = 0; ; attempt++) {
            try (SqlSession session = sessions.openSession(true)) {
                long changedAt = guard.markVerified(session, StoreIdentityGuard.CHANGED_AT);
                if (changedAt == 0) {
                    return 0;
                }
                long now = session.getMapper(StoreIdentityMapper.class).databaseMillis();
                return changedAt + holderLease.toMillis() - now;
            } catch (StoreIdentityGuard.Copied copied) {
                throw new WorkerIdUnavailableException("Snowflake mode " + mode + ": " + copied.getMessage()
                        + "; its worker ids may be held by the servers of the original. See docs/databases.md,"
                        + " \"A copy is not the original\"");
            } catch (StoreIdentityGuard.Changed changed) {
                if (attempt > 0) {
                    throw new WorkerIdUnavailableException("Snowflake mode " + mode + ": " + changed.getMessage()
                            + ", and adopting it did not last: is leaf.jdbc.url pointing at several databases in turn?");
                }
                guard.adopt();
            } catch (HighWaterMarks.MissingTableException missing) {
                if (created) {
                    throw new WorkerIdUnavailableException("Snowflake mode " + mode + ": leaf_high_water vanished "
                            + "just after it was created; create it with " + HighWaterMarks.TABLE_SCRIPT, missing);
                }
                create(mode);
                created = true;
            }
        }
    }

    /** An older table set without {@code leaf_high_water}: made here, since a start must record the database. */
    private void create(String mode) {
        try {
            TableScripts.run(sessions, "leaf_high_water.sql");
        } catch (PersistenceException e) {
            throw new WorkerIdUnavailableException("Snowflake mode " + mode + ": table leaf_high_water is missing and "
                    + "could not be created (" + SqlFailures.rootCause(e).getMessage() + "). It records which "
                    + "database this fleet writes to, so that a failover cannot give one worker id to two processes; "
                    + "create it with " + HighWaterMarks.TABLE_SCRIPT + " and start again", e);
        }
        log.info("Snowflake mode {}: created table leaf_high_water, which records the database this fleet writes to",
                mode);
    }
}
