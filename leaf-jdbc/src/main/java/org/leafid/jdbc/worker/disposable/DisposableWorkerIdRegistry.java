package org.leafid.jdbc.worker.disposable;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservationSink;
import org.leafid.core.worker.WorkerIdLostException;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.jdbc.DatabaseOutageLog;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.worker.StoreChangeWait;
import org.leafid.jdbc.worker.disposable.WorkerNodeMapper.Start;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code disposable} mode, Baidu uid-generator's {@code DisposableWorkerIdAssigner}: every
 * start inserts a row into {@code WORKER_NODE} and its AUTO_INCREMENT {@code ID} is the worker id.
 * An id is never given twice, so nothing has to survive a restart: no cache file, no recorded
 * reservation (the reservation lives in memory only), and a restart with the clock stepped back
 * issues with a new id. The price is one id per start: the layout's worker bits bound how many
 * starts the table can ever serve, so a start beyond them is refused and one past 90 % warns.
 *
 * <p>"Never twice" holds only while the table never goes back. A failover to a copy that lacks the
 * last rows would give a lost row's {@code ID} to the next start while the first one issues with
 * it. So each renewal checks this start's row (host, port and creation time): a missing row is put
 * back under its {@code ID}, another start's row there stops issuing ({@link WorkerIdLostException});
 * and a start within {@code checkLease} of a change of database waits that out first
 * ({@link StoreChangeWait}). The check needs no database to keep issuing: when it cannot be
 * reached the check waits for it, with a WARN.
 */
public final class DisposableWorkerIdRegistry implements WorkerIdRegistry {

    private static final Logger log = LoggerFactory.getLogger(DisposableWorkerIdRegistry.class);

    /** uid-generator's {@code TYPE} of a process on a host of its own ({@code WorkerNodeType.ACTUAL}). */
    static final int TYPE_ACTUAL = 2;
    /** Ten renewals at the default report interval of 3 s. */
    public static final Duration DEFAULT_CHECK_LEASE = Duration.ofSeconds(30);
    /** Inserts tried when each meets an {@code ID} put back by its start (PostgreSQL's identity behind). */
    private static final int MAX_INSERTS = 16;

    private static final String TABLE_SCRIPT = SqlDialect.scripts("worker_node.sql");

    private final SqlSessionFactory sessions;
    private final InstanceAddress instance;
    private final long maxWorkerId;
    private final StoreChangeWait storeChange;
    private final Executor rowChecker;

    /** @param maxWorkerId the largest worker id the layout can carry ({@code 2^worker-bits - 1}) */
    public DisposableWorkerIdRegistry(SqlSessionFactory sessions, InstanceAddress instance, long maxWorkerId) {
        this(sessions, instance, maxWorkerId, StoreChangeWait.of(sessions, DEFAULT_CHECK_LEASE));
    }

    /**
     * @param maxWorkerId the largest worker id the layout can carry ({@code 2^worker-bits - 1})
     * @param storeChange what a start does first: after the database failed over, it waits until
     *     every start from before has checked its row (several of their report intervals)
     */
    public DisposableWorkerIdRegistry(SqlSessionFactory sessions, InstanceAddress instance, long maxWorkerId,
            StoreChangeWait storeChange) {
        this(sessions, instance, maxWorkerId, storeChange, Runnable::run);
    }

    /**
     * @param rowChecker runs the renewals' row checks, so that a stalled database cannot hold up a
     *     renewal (the reservation lives in memory); {@code Runnable::run} checks in the renewing thread
     */
    public DisposableWorkerIdRegistry(SqlSessionFactory sessions, InstanceAddress instance, long maxWorkerId,
            StoreChangeWait storeChange, Executor rowChecker) {
        if (maxWorkerId < 1) {
            throw new IllegalArgumentException("maxWorkerId must be at least 1: " + maxWorkerId);
        }
        this.sessions = sessions;
        this.instance = instance;
        this.maxWorkerId = maxWorkerId;
        this.storeChange = storeChange;
        this.rowChecker = rowChecker;
    }

    /** A new row per start: its id is never anyone else's (the row check stops it if a failover says otherwise). */
    @Override
    public boolean givesEachIdOnce() {
        return true;
    }

    @Override
    public Registration register() {
        long id;
        Start start;
        try {
            storeChange.await("disposable");
            try (SqlSession session = sessions.openSession(true)) {
                WorkerNodeMapper rows = session.getMapper(WorkerNodeMapper.class);
                id = insert(rows);
                start = rows.find(id);
            }
        } catch (PersistenceException e) {
            throw new WorkerIdUnavailableException("Snowflake mode disposable: could not insert this start's row into "
                    + "WORKER_NODE (" + SqlFailures.rootCause(e).getMessage() + "). "
                    + SqlFailures.hint(e, TABLE_SCRIPT), e);
        }
        if (id < 1 || id > maxWorkerId) {
            throw new WorkerIdUnavailableException("Snowflake mode disposable: WORKER_NODE gave this start ID " + id
                    + ", beyond the largest worker id the layout carries, " + maxWorkerId + ": every ID up to it has "
                    + "been used by an earlier start. Give the layout more worker bits "
                    + "(leaf.snowflake.layout.worker-bits), or move to another worker-id mode; never lower the "
                    + "table's AUTO_INCREMENT, which would give an id to a second start.");
        }
        if (start == null) {
            throw new WorkerIdUnavailableException("Snowflake mode disposable: the row WORKER_NODE gave this start, ID "
                    + id + ", was deleted at once; start again, and delete no rows of WORKER_NODE");
        }
        if (id * 10 >= maxWorkerId * 9) {
            log.warn("Snowflake mode disposable: worker id {} of at most {} ({} % of the layout's worker ids used by "
                    + "starts so far); plan a layout with more worker bits before they run out", id, maxWorkerId,
                    id * 100 / maxWorkerId);
        }
        log.info("Snowflake mode disposable: this start of {} is WORKER_NODE row {}, its worker id", instance, id);
        return new Registration((int) id, 0, new RowCheck(id, start));
    }

    private long insert(WorkerNodeMapper rows) {
        for (int attempt = 1; ; attempt++) {
            try {
                rows.insert(instance.ip(), Integer.toString(instance.port()), TYPE_ACTUAL);
                return rows.lastInsertId();
            } catch (PersistenceException e) {
                if (!SqlFailures.duplicateKey(e) || attempt == MAX_INSERTS) {
                    throw e;
                }
                // An ID a start put back after a failover, with PostgreSQL's identity behind it: the next is free.
            }
        }
    }

    /**
     * The reservation lives in memory (no later start can hold this id); each renewal checks that the
     * row is still this start's.
     */
    private final class RowCheck implements ReservationSink {

        private final long id;
        private final Start start;
        private final DatabaseOutageLog outage = new DatabaseOutageLog(log, Duration.ofMinutes(1), System::nanoTime);
        private final AtomicBoolean checking = new AtomicBoolean();
        private volatile WorkerIdLostException lost;

        RowCheck(long id, Start start) {
            this.id = id;
            this.start = start;
        }

        /**
         * Starts a check of the row unless one runs; fails when a check found the id another's (the
         * holder then stops issuing). A check that finds it is at most one renewal behind.
         */
        @Override
        public void record(int workerId, long reservedUntilMillis) {
            throwIfLost();
            if (checking.compareAndSet(false, true)) {
                try {
                    rowChecker.execute(() -> {
                        try {
                            check(workerId);
                        } catch (WorkerIdLostException e) {
                            lost = e;
                        } finally {
                            checking.set(false);
                        }
                    });
                } catch (RejectedExecutionException e) {
                    checking.set(false); // shutting down: nothing to check
                }
            }
            throwIfLost(); // a check in this thread (Runnable::run) may have found it
        }

        private void throwIfLost() {
            WorkerIdLostException found = lost;
            if (found != null) {
                throw found;
            }
        }

        private void check(int workerId) {
            try (SqlSession session = sessions.openSession(true)) {
                WorkerNodeMapper rows = session.getMapper(WorkerNodeMapper.class);
                Start found = rows.find(id);
                if (found == null) {
                    putBack(rows);
                } else if (!start.equals(found)) {
                    throw lost(found);
                }
            } catch (PersistenceException e) {
                outage.failed(e, "Snowflake mode disposable: could not check WORKER_NODE row " + id + " ("
                        + SqlFailures.rootCause(e) + "); worker id " + workerId + " keeps issuing, and the row is "
                        + "checked again at each renewal");
                return;
            }
            outage.answered("The database of WORKER_NODE", "the row of worker id " + workerId + " is checked again");
        }

        /** Nothing to record when the id is given up: no start after this one is given it. */
        @Override
        public void release(int workerId, long finalReservationMillis) {
            // The row stays, so that its ID is never handed out again.
        }

        /** The row is gone: a copy that lacked it, or an operator. Back under its ID, before a start takes it. */
        private void putBack(WorkerNodeMapper rows) {
            try {
                rows.restore(id, start, TYPE_ACTUAL);
            } catch (PersistenceException e) {
                if (SqlFailures.duplicateKey(e)) {
                    Start other = rows.find(id);
                    throw lost(other);
                }
                throw e;
            }
            log.warn("Snowflake mode disposable: WORKER_NODE row {} of this start was missing (a failover to a copy "
                    + "that lacked it, or a deletion) and has been put back, so no other start is given worker id {}",
                    id, id);
        }

        private WorkerIdLostException lost(Start other) {
            return new WorkerIdLostException("WORKER_NODE row " + id + ", this start's worker id, now belongs to "
                    + (other == null ? "another start" : "another start (" + other.hostName() + ":" + other.port()
                            + ", created " + other.created() + ")")
                    + ": the database went back (a failover to a copy that lacked the row) and gave the id again. "
                    + "This start stops issuing; start it again to get a new id");
        }
    }
}
