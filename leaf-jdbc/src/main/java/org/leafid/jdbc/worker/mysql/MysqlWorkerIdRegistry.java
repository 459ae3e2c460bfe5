package org.leafid.jdbc.worker.mysql;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.Durations;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.LeaseOwner;
import org.leafid.core.worker.RegistryWriter;
import org.leafid.core.worker.ReservationFile;
import org.leafid.core.worker.ReservationFile.Recorded;
import org.leafid.core.worker.StartReservation;
import org.leafid.core.worker.WorkerIdLostException;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.worker.WriteThroughSink;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.worker.StoreChangeWait;
import org.leafid.jdbc.worker.mysql.WorkerIdAllocMapper.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code mysql} mode: each instance ({@code ip:port}) owns one row of
 * {@code leaf_workerid_alloc} for good, and its worker id is the row's {@code id - 1}, so the
 * AUTO_INCREMENT ids 1..1024 give worker ids 0..1023 with Leaf's 10 worker bits (1..2^worker-bits
 * with another layout); a row with a larger id stops the start with what the operator can do
 * about it. The row's {@code max_timestamp} is the time
 * reservation; it is also kept in the local cache {@code workerID.properties}.
 *
 * <p>Every reservation is written to the cache file and then to the row before it is used
 * ({@link WriteThroughSink}): the row is what tells another process of the same address that this
 * one is live, so a reservation the database has not confirmed does not count, and the holder stops
 * issuing once its last confirmed one runs out (2 x the report interval). The database must be
 * reachable at start; the cache file still binds the start to its own last reservation (the later
 * of the row's and the cache's). Every database wait is bounded by the timeouts of the pool (pool
 * wait, connect and socket timeouts).
 *
 * <p>The row is the address's for good, but it is held by one process at a time: the
 * {@code holder} column names it ({@link LeaseOwner}: the address and a random token of the
 * process), and every row write of the holder, renewals included, sets {@code update_time}. A
 * start finding the row held, and written within {@code holderLease} by the database's clock, is
 * a second live process of the address and is refused; an older holder stopped without a
 * release (a crash) and is replaced. A graceful stop clears the holder, so a restart gets the id
 * at once. A holder whose write finds another process holding the row stops issuing
 * ({@link WorkerIdLostException}). While the database is unreachable nothing can be checked: a
 * process cut off for longer than {@code holderLease} may be replaced by one of the same address,
 * and learns it at its next row write; it issues nothing meanwhile, its last confirmed renewal having
 * run out long before {@code holderLease}.
 *
 * <p>After a failover to a copy that lacks the last rows, a new instance could be given the id of
 * a row lost with them while its holder still issues. Every start therefore first checks the
 * database and, within {@code holderLease} of a change, waits ({@link StoreChangeWait}): by then the
 * holder's row write has put its row back (or found the id taken, and stopped).
 */
public final class MysqlWorkerIdRegistry implements WorkerIdRegistry {

    private static final Logger log = LoggerFactory.getLogger(MysqlWorkerIdRegistry.class);

    private static final String TABLE_SCRIPT = SqlDialect.scripts("leaf_workerid_alloc.sql");

    private final SqlSessionFactory sessions;
    private final InstanceAddress instance;
    private final ReservationFile cache;
    /** Row ids 1..maxRowId give worker ids 0..maxRowId - 1, the layout's. */
    private final long maxRowId;
    private final Duration holderLease;
    private final LeaseOwner owner;
    private final StoreChangeWait storeChange;

    public MysqlWorkerIdRegistry(SqlSessionFactory sessions, InstanceAddress instance, ReservationFile cache) {
        this(sessions, instance, cache, SnowflakeLayout.MAX_WORKER_ID, DEFAULT_HOLDER_LEASE);
    }

    /** @param maxWorkerId the layout's largest worker id ({@code 2^worker-bits - 1}): row ids up to it + 1 */
    public MysqlWorkerIdRegistry(SqlSessionFactory sessions, InstanceAddress instance, ReservationFile cache,
            int maxWorkerId) {
        this(sessions, instance, cache, maxWorkerId, DEFAULT_HOLDER_LEASE);
    }

    /**
     * @param maxWorkerId the layout's largest worker id ({@code 2^worker-bits - 1}): row ids up to it + 1
     * @param holderLease how long after its last row write a holder still counts as live: several
     *     report intervals, so that one slow write does not make a live holder look dead
     */
    public MysqlWorkerIdRegistry(SqlSessionFactory sessions, InstanceAddress instance, ReservationFile cache,
            int maxWorkerId, Duration holderLease) {
        this(sessions, instance, cache, maxWorkerId, holderLease, StoreChangeWait.of(sessions, holderLease));
    }

    /**
     * @param storeChange what a start does first: after the database failed over, it waits until
     *     every holder from before has written its row ({@code holderLease} after the change)
     */
    public MysqlWorkerIdRegistry(SqlSessionFactory sessions, InstanceAddress instance, ReservationFile cache,
            int maxWorkerId, Duration holderLease, StoreChangeWait storeChange) {
        if (maxWorkerId < 0) {
            throw new IllegalArgumentException("maxWorkerId must not be negative: " + maxWorkerId);
        }
        this.sessions = sessions;
        this.instance = instance;
        this.cache = cache;
        this.maxRowId = maxWorkerId + 1L;
        this.holderLease = holderLease;
        this.owner = LeaseOwner.newProcess(instance);
        this.storeChange = storeChange;
    }

    /** Inserts tried when each finds its id taken: ids put back by their holders, with the identity behind. */
    private static final int MAX_INSERTS = 16;

    /** Ten renewals at the default report interval of 3 s. */
    public static final Duration DEFAULT_HOLDER_LEASE = Duration.ofSeconds(30);

    @Override
    public Registration register() {
        Optional<Recorded> cached = cache.read();
        Row row;
        try {
            storeChange.await("mysql");
            row = findOrInsertRow();
        } catch (PersistenceException e) {
            throw unreadable(e);
        }
        int workerId = workerIdOf(row);
        StartReservation start = StartReservation.of(cached, workerId, row.maxTimestamp());
        long recorded = start.reservedUntilMillis();
        if (start.cacheOverruled()) {
            log.warn("Snowflake mode mysql: the cache {} holds worker id {}, but the row of {} in leaf_workerid_alloc "
                    + "gives {}; the row wins", cache.path(), cached.get().workerId(), instance, workerId);
        }
        log.info("Snowflake mode mysql: {} (process {}) holds worker id {} (row id {}), recorded reservation {} "
                + "(cache {})", instance, owner.token(), workerId, row.id(), recorded, cache.path());
        return new Registration(workerId, recorded, sink(row.id()));
    }

    private Row findOrInsertRow() {
        try (SqlSession session = sessions.openSession(true)) {
            WorkerIdAllocMapper rows = session.getMapper(WorkerIdAllocMapper.class);
            Row row = find(rows);
            for (int attempt = 1; row == null; attempt++) {
                try {
                    rows.insert(instance.key(), instance.ip(), instance.port());
                    log.info("Snowflake mode mysql: inserted the row of {} into leaf_workerid_alloc", instance);
                } catch (PersistenceException e) {
                    if (!SqlFailures.duplicateKey(e)) {
                        throw e;
                    }
                    // A process with the same address inserted it first (claimed below, unless it is live), or
                    // PostgreSQL's identity gave an id a holder put back by hand (the next one is free).
                }
                row = find(rows);
                if (row == null && attempt == MAX_INSERTS) {
                    throw new WorkerIdUnavailableException("The row of " + instance + " in leaf_workerid_alloc could "
                            + "not be inserted " + MAX_INSERTS + " times (each id taken, or the row deleted at once); "
                            + "start it again");
                }
            }
            workerIdOf(row); // a row beyond the layout is refused before it is claimed
            claim(rows, row);
            return row;
        }
    }

    private Row find(WorkerIdAllocMapper rows) {
        try {
            return rows.findByIpPort(instance.key());
        } catch (PersistenceException e) {
            if (missingHolderColumn(e)) {
                throw new WorkerIdUnavailableException("leaf_workerid_alloc has no holder column: the table was "
                        + "created by an earlier version of " + TABLE_SCRIPT + ". Add it (MySQL, MariaDB and "
                        + "PostgreSQL alike): ALTER TABLE leaf_workerid_alloc ADD COLUMN holder varchar(128) NULL; "
                        + "then start again", e);
            }
            throw e;
        }
    }

    private static boolean missingHolderColumn(PersistenceException e) {
        Throwable cause = SqlFailures.rootCause(e);
        String message = String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT);
        return cause instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("42")
                && message.contains("holder");
    }

    /**
     * Makes this process the row's holder: free, or held by a process whose last write is older
     * than the holder lease (it stopped without a release). A live holder: refused.
     */
    private void claim(WorkerIdAllocMapper rows, Row row) {
        if (row.holder() == null) {
            if (rows.claimFree(row.id(), owner.key()) == 1) {
                return;
            }
            throw heldByAnother(rows.holderOf(row.id()), 0);
        }
        long silent = row.sinceLastWriteMillis();
        if (silent < holderLease.toMillis()) {
            throw heldByAnother(row.holder(), silent);
        }
        if (rows.claimFrom(row.id(), owner.key(), row.holder()) != 1) {
            throw heldByAnother(rows.holderOf(row.id()), 0);
        }
        log.warn("Snowflake mode mysql: the row of {} was held by process {}, which has not written it for {} ms "
                + "(more than {}): it stopped without a release; this process ({}) holds it now", instance,
                row.holder(), silent, Durations.format(holderLease), owner);
    }

    private WorkerIdUnavailableException heldByAnother(String holder, long silentMillis) {
        return new WorkerIdUnavailableException("Snowflake mode mysql: the worker id of " + instance + " is held by "
                + "another live process (" + holder + ", its last write " + silentMillis + " ms ago by the database's "
                + "clock). Two servers share the address " + instance + ": stop the other one, or give each its own "
                + "leaf.snowflake.ip or port. If that process was killed, start again once "
                + Durations.format(holderLease) + " have passed since its last write");
    }

    private int workerIdOf(Row row) {
        if (row.id() < 1) {
            throw new WorkerIdUnavailableException("The row of " + instance + " in leaf_workerid_alloc has id " + row.id()
                    + ", but worker ids are id - 1, so ids start at 1; delete that row and start again");
        }
        if (row.id() > maxRowId) {
            throw new WorkerIdUnavailableException("leaf_workerid_alloc has more than " + maxRowId + " rows: the row of "
                    + instance + " has id " + row.id() + ", but worker ids are id - 1 and must be in 0.."
                    + (maxRowId - 1) + " (the worker bits of leaf.snowflake.layout). Rows of retired instances are never removed automatically: "
                    + "give this instance the row of a retired one, which keeps its max_timestamp: "
                    + "DELETE FROM leaf_workerid_alloc WHERE ip_port = '" + instance.key() + "'; "
                    + "UPDATE leaf_workerid_alloc SET ip_port = '" + instance.key() + "', ip = '" + instance.ip()
                    + "', port = " + instance.port() + " WHERE ip_port = '<retired ip:port>'. "
                    + "Deleting retired rows alone does not lower the AUTO_INCREMENT counter");
        }
        return (int) (row.id() - 1);
    }

    /**
     * The row could not be read or claimed. The cache file is no way round it: without the row,
     * nothing tells whether another process of this address holds the id now.
     */
    private WorkerIdUnavailableException unreadable(PersistenceException failure) {
        Throwable cause = SqlFailures.rootCause(failure);
        if (!SqlFailures.unreachable(failure)) {
            return new WorkerIdUnavailableException("Snowflake mode mysql: could not read or insert the row of "
                    + instance + " in leaf_workerid_alloc: " + cause.getMessage() + hint(failure), failure);
        }
        return new WorkerIdUnavailableException("Snowflake mode mysql: the database of leaf.jdbc.url cannot be "
                + "reached (" + cause + "), so whether another process of " + instance + " holds its worker id "
                + "cannot be known, and no cached id is safe. Make the database reachable (check leaf.jdbc.url, the "
                + "network and that the server runs), then start again", failure);
    }

    private WriteThroughSink sink(long rowId) {
        return new WriteThroughSink(cache, new RowWriter(rowId), log);
    }

    /** Writes the reservation into the row, after the cache file ({@link WriteThroughSink}). */
    private final class RowWriter implements RegistryWriter {

        private final long rowId;

        RowWriter(long rowId) {
            this.rowId = rowId;
        }

        /**
         * A renewal only moves the row forward; the release sets the final value exactly and
         * clears the holder. Either writes only while this process holds the row.
         */
        @Override
        public boolean write(int workerId, long until, boolean finalWrite) {
            try (SqlSession session = sessions.openSession(true)) {
                WorkerIdAllocMapper rows = session.getMapper(WorkerIdAllocMapper.class);
                int updated = finalWrite
                        ? rows.setReservation(rowId, instance.key(), owner.key(), until)
                        : rows.extendReservation(rowId, instance.key(), owner.key(), until);
                if (updated == 0) {
                    notHeld(rows, workerId, until, finalWrite);
                }
            }
            return true;
        }

        /**
         * The write found the row not this process's: deleted (put back, with its id), without a
         * holder (a start from the cache file: claimed), or another process's (lost).
         */
        private void notHeld(WorkerIdAllocMapper rows, int workerId, long until, boolean finalWrite) {
            if (rows.countOwned(rowId, instance.key()) == 0) {
                restoreRow(rows, workerId, until);
                if (finalWrite) {
                    rows.setReservation(rowId, instance.key(), owner.key(), until);
                }
                return;
            }
            String holder = rows.holderOf(rowId);
            if (holder == null && rows.claimFree(rowId, owner.key()) == 1) {
                write(rows, until, finalWrite);
                return;
            }
            if (holder != null && !holder.equals(owner.key())) {
                Row row = find(rows);
                if (row != null && row.id() == rowId && holder.equals(row.holder())
                        && row.sinceLastWriteMillis() >= holderLease.toMillis()
                        && rows.claimFrom(rowId, owner.key(), holder) == 1) {
                    write(rows, until, finalWrite); // its holder stopped without a release
                    return;
                }
                throw new WorkerIdLostException("worker id " + workerId + " of " + instance + " is held by another "
                        + "live process (" + holder + "), not this one (" + owner + "): two servers share the "
                        + "address. This one stops issuing; give each its own leaf.snowflake.ip or port");
            }
            // holder is this process's and the row unchanged (useAffectedRows=true counts an unchanged row 0)
        }

        private void write(WorkerIdAllocMapper rows, long until, boolean finalWrite) {
            if (finalWrite) {
                rows.setReservation(rowId, instance.key(), owner.key(), until);
            } else {
                rows.extendReservation(rowId, instance.key(), owner.key(), until);
            }
        }

        /**
         * Puts back a row someone deleted, with its id, so no new instance is given this worker id;
         * if the id or this ip:port is in another row by now, the id is no longer this instance's.
         */
        private void restoreRow(WorkerIdAllocMapper rows, int workerId, long until) {
            try {
                rows.restore(rowId, instance.key(), instance.ip(), instance.port(), until, owner.key());
            } catch (PersistenceException e) {
                if (SqlFailures.duplicateKey(e)) {
                    throw new WorkerIdLostException("Row id " + rowId + " of leaf_workerid_alloc no longer belongs "
                            + "to " + instance + " (it was deleted, and the id or this ip:port is in another row now)");
                }
                throw e;
            }
            log.warn("Snowflake mode mysql: the row of {} (worker id {}) was missing from leaf_workerid_alloc and has "
                    + "been put back; delete rows only of instances that are stopped for good", instance, workerId);
        }

        @Override
        public Failure describe(Exception failure, int workerId, long until) {
            String cause = SqlFailures.rootCause(failure).toString();
            if (SqlFailures.unreachable(failure)) {
                return Failure.warning("Snowflake mode mysql: the database cannot be reached (" + cause + "); worker "
                        + "id " + workerId + " issues only until its last confirmed reservation runs out, and again "
                        + "once its row is written");
            }
            return Failure.error("Snowflake mode mysql: updating the row of worker id " + workerId + " in "
                    + "leaf_workerid_alloc failed (" + cause + ")" + hint(failure) + "; IDs stop when the last "
                    + "confirmed reservation runs out");
        }

        @Override
        public String recovered(int workerId) {
            return "Snowflake mode mysql: the reservation of worker id " + workerId + " is recorded in "
                    + "leaf_workerid_alloc again";
        }
    }

    /** What to change when the database answered that the configuration is wrong; nothing otherwise. */
    private static String hint(Throwable failure) {
        return SqlFailures.classify(failure).misconfiguration() ? SqlFailures.hint(failure, TABLE_SCRIPT) : "";
    }
}
