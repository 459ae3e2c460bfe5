package org.leafid.autoconfigure.snowflake;

import org.leafid.core.snowflake.ClockMovedBackwardsException;
import org.leafid.core.LeafException;
import org.leafid.core.snowflake.TimestampOverflowException;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.worker.ReservationAheadOfClockException;
import org.leafid.core.worker.WorkerCacheFileException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * A snowflake failure that stopped the start (the worker id could not be held, its cache file is
 * not valid, the clock is behind the recorded reservation…) becomes Spring Boot's "APPLICATION
 * FAILED TO START" summary with its own message, instead of a long stack trace whose last
 * "Caused by" held that message. Snowflake's exceptions only: another part's failure (a segment tag
 * an embedding application asked for at start) is that part's to report, not "Snowflake could not
 * start".
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class WorkerIdStartFailureAnalyzer extends AbstractFailureAnalyzer<LeafException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, LeafException cause) {
        String action = action(cause);
        return action == null ? null
                : new FailureAnalysis("Snowflake could not start: " + cause.getMessage(), action, cause);
    }

    /** What to do, or null when the failure is not snowflake's. */
    private static String action(LeafException cause) {
        if (cause instanceof ReservationAheadOfClockException) {
            return "Correct the clock of this machine, or wait until it has passed the recorded reservation and "
                    + "start again (leaf.snowflake.max-start-wait bounds how long a start waits by itself).";
        }
        if (cause instanceof WorkerCacheFileException file) {
            return "Restore " + file.path() + " from a backup, or delete it once the clock is past any time this "
                    + "instance issued IDs at, and start again.";
        }
        if (cause instanceof WorkerIdUnavailableException) {
            return "Check that the worker-id store of leaf.snowflake.mode is reachable (leaf.snowflake.zk.address "
                    + "for the zk modes, leaf.jdbc.url for mysql, spring.data.redis.* for redis) and start again; or switch snowflake off with "
                    + "leaf.snowflake.enable=false.";
        }
        if (cause instanceof ClockMovedBackwardsException || cause instanceof TimestampOverflowException) {
            return "Check the clock of this machine (NTP) and leaf.snowflake.twepoch, and start again.";
        }
        return null;
    }
}
