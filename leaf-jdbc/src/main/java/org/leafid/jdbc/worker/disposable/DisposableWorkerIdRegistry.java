package org.leafid.jdbc.worker.disposable;

import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservationSink;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.SqlFailures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code disposable} mode, Baidu uid-generator's {@code DisposableWorkerIdAssigner}: every
 * start inserts a row into {@code WORKER_NODE} and its AUTO_INCREMENT {@code ID} is the worker id.
 * An id is never given twice, so nothing has to survive a restart: no cache file, no recorded
 * reservation (the reservation lives in memory only), and a restart with the clock stepped back
 * issues with a new id. The price is one id per start: the layout's worker bits bound how many
 * starts the table can ever serve, so a start beyond them is refused and one past 90 % warns.
 */
public final class DisposableWorkerIdRegistry implements WorkerIdRegistry {

    private static final Logger log = LoggerFactory.getLogger(DisposableWorkerIdRegistry.class);

    /** uid-generator's {@code TYPE} of a process on a host of its own ({@code WorkerNodeType.ACTUAL}). */
    static final int TYPE_ACTUAL = 2;

    private static final String TABLE_SCRIPT = SqlDialect.scripts("worker_node.sql");

    private final SqlSessionFactory sessions;
    private final InstanceAddress instance;
    private final long maxWorkerId;

    /** @param maxWorkerId the largest worker id the layout can carry ({@code 2^worker-bits - 1}) */
    public DisposableWorkerIdRegistry(SqlSessionFactory sessions, InstanceAddress instance, long maxWorkerId) {
        if (maxWorkerId < 1) {
            throw new IllegalArgumentException("maxWorkerId must be at least 1: " + maxWorkerId);
        }
        this.sessions = sessions;
        this.instance = instance;
        this.maxWorkerId = maxWorkerId;
    }

    /** A new row per start: its id is never anyone else's. */
    @Override
    public boolean givesEachIdOnce() {
        return true;
    }

    @Override
    public Registration register() {
        long id;
        try (SqlSession session = sessions.openSession(true)) {
            WorkerNodeMapper rows = session.getMapper(WorkerNodeMapper.class);
            rows.insert(instance.ip(), Integer.toString(instance.port()), TYPE_ACTUAL);
            id = rows.lastInsertId();
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
        if (id * 10 >= maxWorkerId * 9) {
            log.warn("Snowflake mode disposable: worker id {} of at most {} ({} % of the layout's worker ids used by "
                    + "starts so far); plan a layout with more worker bits before they run out", id, maxWorkerId,
                    id * 100 / maxWorkerId);
        }
        log.info("Snowflake mode disposable: this start of {} is WORKER_NODE row {}, its worker id", instance, id);
        return new Registration((int) id, 0, new InMemoryReservation());
    }

    /** Nothing to record: no later start can hold this id. */
    private static final class InMemoryReservation implements ReservationSink {

        @Override
        public void record(int workerId, long reservedUntilMillis) {
            // The reservation bounds this process only, and no process after it uses the id.
        }
    }
}
