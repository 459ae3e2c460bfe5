package org.leafid.jdbc;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.leafid.core.LeafInterruptedException;
import org.leafid.core.Sleeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a reservation again when the database answered "try again" ({@link SqlFailures#tryAgain}:
 * a deadlock, a lock wait that timed out, a table definition that changed under the transaction,
 * a serialization failure), up to {@link #MAX_ATTEMPTS} attempts with a growing, jittered pause,
 * so that two servers meeting on one row do not turn the database's routine answer into a 503.
 *
 * <p>Safe because an attempt that failed was rolled back (its session is closed without commit):
 * nothing of it was served. An attempt whose commit went through although its answer was lost is
 * at worst a block skipped, never one served twice. Each kind is counted and logged once per
 * table, with what an operator may do if the count keeps rising.
 */
public final class SqlRetry {

    /** Attempts in all, the first included: enough to outlast a burst of contention, bounded so a stuck lock still fails. */
    public static final int MAX_ATTEMPTS = 10;
    private static final long FIRST_PAUSE_MILLIS = 5;
    private static final long MAX_PAUSE_MILLIS = 100;

    private static final Logger log = LoggerFactory.getLogger(SqlRetry.class);

    private final String table;
    private final Sleeper sleeper;
    private final Map<SqlFailures.TryAgain, LongAdder> retried = new EnumMap<>(SqlFailures.TryAgain.class);
    private final Set<SqlFailures.TryAgain> logged = ConcurrentHashMap.newKeySet();

    /** @param table the table whose reservations are retried: what the log and the meter name */
    public SqlRetry(String table, Sleeper sleeper) {
        this.table = table;
        this.sleeper = sleeper;
        for (SqlFailures.TryAgain kind : SqlFailures.TryAgain.values()) {
            retried.put(kind, new LongAdder());
        }
    }

    /**
     * The attempt's result; a failure the database says to try again is tried again (the last one
     * is thrown as it is), any other failure is thrown at once.
     */
    public <T> T run(Supplier<T> attempt) {
        for (int attempts = 1; ; attempts++) {
            try {
                return attempt.get();
            } catch (RuntimeException e) {
                Optional<SqlFailures.TryAgain> kind = SqlFailures.tryAgain(e);
                if (kind.isEmpty() || attempts >= MAX_ATTEMPTS) {
                    throw e;
                }
                retried.get(kind.get()).increment();
                if (logged.add(kind.get())) {
                    log.warn("{}: the database answered {} to a block reservation; it is retried (up to {} "
                            + "attempts) and counted in leaf_db_retries_total. Occasional retries are normal when "
                            + "servers meet on one row; a steady rise means contention or long transactions on {} "
                            + "(logged once per kind)", table, kind.get().words(), MAX_ATTEMPTS, table);
                }
                pause(attempts);
            }
        }
    }

    /** Retries of reservations for one kind of answer, since start. */
    public long retries(SqlFailures.TryAgain kind) {
        return retried.get(kind).sum();
    }

    /** The table whose reservations are retried. */
    public String table() {
        return table;
    }

    /** Doubling pauses with full jitter, so that the servers that met do not meet again in step. */
    private void pause(int attemptsSoFar) {
        long ceiling = Math.min(MAX_PAUSE_MILLIS, FIRST_PAUSE_MILLIS << Math.min(attemptsSoFar, 10));
        try {
            sleeper.sleepMillis(ThreadLocalRandom.current().nextLong(1, ceiling + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LeafInterruptedException("a retry of a block reservation in " + table, e);
        }
    }
}
