package org.leafid.jdbc;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * The operator's log of a database outage (segment mode; a disposable worker id's row check): one WARN line per cause per interval
 * (without a stack trace: the line carries the cause and what to check), and one INFO line when
 * the database answers again. During an outage the tag list and every starved tag are retried
 * every second; logging each attempt would bury the line that matters. Not on the ID hot path:
 * called after a tag read or a block load.
 */
public final class DatabaseOutageLog {

    private final Logger log;
    private final long intervalNanos;
    private final LongSupplier nanoTime;

    /** Guarded by {@code this}. */
    private String loggedCause;
    private long loggedAtNanos;
    private long failures;
    private long suppressed;

    /**
     * @param interval the least time between two lines about the same cause
     * @param nanoTime a monotonic time source, injected by tests
     */
    public DatabaseOutageLog(Logger log, Duration interval, LongSupplier nanoTime) {
        this.log = log;
        this.intervalNanos = interval.toNanos();
        this.nanoTime = nanoTime;
    }

    /**
     * A read or load failed.
     *
     * @param failure the failure, whose kind and root cause tell causes apart
     * @param line what to log: the failure in words and what it means for IDs
     */
    public void failed(Throwable failure, String line) {
        String cause = SqlFailures.classify(failure) + " " + SqlFailures.rootCause(failure).getClass().getName();
        String toLog;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            failures++;
            if (cause.equals(loggedCause) && now - loggedAtNanos < intervalNanos) {
                suppressed++;
                return;
            }
            toLog = suppressed > 0 ? line + " (" + suppressed + " more failed attempts since the last line)" : line;
            loggedCause = cause;
            loggedAtNanos = now;
            suppressed = 0;
        }
        log.warn(toLog);
    }

    /** A read or load succeeded: ends the outage, with one line if one was logged. */
    public void answered(String what) {
        answered(what, "segment IDs are served");
    }

    /**
     * A read or write succeeded: ends the outage, with one line if one was logged.
     *
     * @param consequence what works again, for the line
     */
    public void answered(String what, String consequence) {
        long failed;
        synchronized (this) {
            if (failures == 0) {
                return;
            }
            failed = failures;
            failures = 0;
            suppressed = 0;
            loggedCause = null;
        }
        log.info("{} answers again after {} failed attempt{}; {}", what, failed, failed == 1 ? "" : "s",
                consequence);
    }
}
