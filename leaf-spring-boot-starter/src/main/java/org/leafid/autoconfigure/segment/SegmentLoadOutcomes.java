package org.leafid.autoconfigure.segment;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.SegmentLoadListener;
import org.leafid.jdbc.DatabaseOutageLog;

/**
 * Follows block loads for the operator: keeps each tag's last failed load (when and why) for the
 * status page, reports failures to the {@link DatabaseOutageLog} and passes every outcome on
 * (to the meters). Called on the loading thread, never on the ID hot path.
 */
public final class SegmentLoadOutcomes implements SegmentLoadListener {

    /** A failed load: when, and why in words. */
    public record Failure(Instant at, String cause) {}

    private final SegmentLoadListener next;
    private final DatabaseOutageLog outageLog;
    private final String database;
    private final InstantSource clock;
    private final Map<String, Failure> lastFailures = new ConcurrentHashMap<>();

    /** @param database how the log names the database when it answers again */
    public SegmentLoadOutcomes(SegmentLoadListener next, DatabaseOutageLog outageLog, String database,
            InstantSource clock) {
        this.next = next;
        this.outageLog = outageLog;
        this.database = database;
        this.clock = clock;
    }

    @Override
    public void loaded(String tag, Duration took, long size) {
        next.loaded(tag, took, size);
        outageLog.answered(database);
    }

    @Override
    public void failed(String tag, Duration took, RuntimeException cause) {
        next.failed(tag, took, cause);
        String reason = cause instanceof SegmentStoreException store ? store.reason() : cause.toString();
        lastFailures.put(tag, new Failure(clock.instant(), reason));
        outageLog.failed(cause, cause.getMessage() + "; the tag serves what it holds, then answers 503 "
                + "until a block can be reserved (retried every second)");
    }

    @Override
    public void wentBack(String tag, long blockStart, long servedFrom) {
        next.wentBack(tag, blockStart, servedFrom);
    }

    /** The last failed load of each tag since the start; a later success does not erase it. */
    public Map<String, Failure> lastFailures() {
        return Map.copyOf(lastFailures);
    }
}
