package org.leafid.autoconfigure.segment;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.leafid.autoconfigure.PeriodicRefresher;
import org.leafid.core.Durations;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.jdbc.DatabaseOutageLog;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.segment.LeafAllocMisconfiguredException;

/**
 * Re-reads the tag list every {@code leaf.segment.refresh-interval}, so rows that operators
 * insert or delete take effect without a restart. Until the first read succeeds it retries
 * every second; and every second it retries the loads of tags left with nothing to issue by a
 * database outage, so they recover without waiting for a request.
 *
 * <p>The first read runs in the starting thread, before the web server opens its port. When it
 * fails because the database cannot be reached, the start goes on (snowflake works, readiness is
 * DOWN naming the cause, segment IDs get 503) and the reads go on until it answers, as Meituan
 * Leaf does; when the database answers that the configuration is wrong (user or password
 * refused, unknown database, no {@code leaf_alloc}), waiting would not help, and the start stops
 * with a {@link LeafAllocMisconfiguredException} naming the key to fix.
 */
public final class SegmentTagRefresher extends PeriodicRefresher {

    private static final Duration RETRY_UNTIL_LOADED = Duration.ofSeconds(1);

    private final SegmentAllocator allocator;
    private final Duration interval;
    private final DatabaseOutageLog outageLog;
    private final String database;

    /** @param database how the log names the database when it answers again */
    public SegmentTagRefresher(SegmentAllocator allocator, Duration interval, DatabaseOutageLog outageLog,
            String database) {
        super("leaf-tag-refresher");
        this.allocator = allocator;
        this.interval = interval;
        this.outageLog = outageLog;
        this.database = database;
    }

    /** First read in the starting thread, so a healthy start serves at once. */
    @Override
    protected void readFirst() {
        refuseMisconfiguredDatabase();
    }

    @Override
    protected void scheduleReads(ScheduledExecutorService scheduler) {
        scheduleNext();
        long retryMillis = RETRY_UNTIL_LOADED.toMillis();
        scheduler.scheduleWithFixedDelay(allocator::retryStarved, retryMillis, retryMillis, TimeUnit.MILLISECONDS);
    }

    /** Reads the tag list now. */
    public SegmentAllocator.Refresh refreshNow() {
        return allocator.refresh();
    }

    private void refuseMisconfiguredDatabase() {
        try {
            allocator.refresh();
        } catch (RuntimeException e) {
            SqlFailures.Kind kind = SqlFailures.classify(e);
            if (kind.misconfiguration()) {
                throw new LeafAllocMisconfiguredException("Segment mode cannot start: " + e.getMessage(), kind, e);
            }
            logFailure(e);
        }
    }

    private void refreshAndReschedule() {
        try {
            allocator.refresh();
            outageLog.answered(database);
        } catch (RuntimeException e) {
            if (stopping()) {
                return; // the stop interrupted the read: that is no database failure
            }
            logFailure(e);
        }
        scheduleNext();
    }

    private void logFailure(RuntimeException e) {
        String consequence = allocator.tagsLoaded()
                ? "; the tags known keep serving, and the tag list is read again every " + Durations.format(interval)
                : "; segment IDs are refused with 503 until it answers (retried every second)";
        outageLog.failed(e, e.getMessage() + consequence);
    }

    private void scheduleNext() {
        scheduleOnce(this::refreshAndReschedule, allocator.tagsLoaded() ? interval : RETRY_UNTIL_LOADED);
    }
}
