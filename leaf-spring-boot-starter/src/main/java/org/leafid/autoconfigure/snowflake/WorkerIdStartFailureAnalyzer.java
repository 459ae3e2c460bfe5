package org.leafid.autoconfigure.snowflake;

import org.leafid.core.LeafException;
import org.leafid.core.WorkerIdUnavailableException;
import org.leafid.core.snowflake.ReservationAheadOfClockException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * A {@link LeafException} that stopped the start (the worker id could not be held, the clock is
 * behind the recorded reservation…) becomes Spring Boot's "APPLICATION FAILED TO START" summary
 * with its own message, instead of a long stack trace whose last "Caused by" held that message.
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class WorkerIdStartFailureAnalyzer extends AbstractFailureAnalyzer<LeafException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, LeafException cause) {
        return new FailureAnalysis("Snowflake could not start: " + cause.getMessage(), action(cause), cause);
    }

    private static String action(LeafException cause) {
        if (cause instanceof ReservationAheadOfClockException) {
            return "Correct the clock of this machine, or wait until it has passed the recorded reservation and "
                    + "start again (leaf.snowflake.max-start-wait bounds how long a start waits by itself).";
        }
        if (cause instanceof WorkerIdUnavailableException) {
            return "Check that the worker-id store of leaf.snowflake.mode is reachable (leaf.snowflake.zk.address "
                    + "for the zk modes, leaf.jdbc.url for mysql) and start again; or switch snowflake off with "
                    + "leaf.snowflake.enable=false.";
        }
        return "Correct the cause above and start again.";
    }
}
