package org.leafid.server.segment;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.leafid.core.segment.SegmentAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Re-reads the tag list every {@code leaf.segment.refresh-interval}, so rows that operators
 * insert or delete take effect without a restart. Until the first read succeeds it retries
 * every second; and every second it retries the loads of tags left with nothing to issue by a
 * database outage, so they recover without waiting for a request.
 */
public final class SegmentTagRefresher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SegmentTagRefresher.class);
    private static final Duration RETRY_UNTIL_LOADED = Duration.ofSeconds(1);

    private final SegmentAllocator allocator;
    private final Duration interval;
    private volatile ScheduledExecutorService scheduler;

    public SegmentTagRefresher(SegmentAllocator allocator, Duration interval) {
        this.allocator = allocator;
        this.interval = interval;
    }

    @Override
    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "leaf-tag-refresher");
            thread.setDaemon(true);
            return thread;
        });
        refreshAndReschedule(); // first read in the starting thread, so a healthy start serves at once
        long retryMillis = RETRY_UNTIL_LOADED.toMillis();
        scheduler.scheduleWithFixedDelay(allocator::retryStarved, retryMillis, retryMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }

    /** Reads the tag list now. */
    public SegmentAllocator.Refresh refreshNow() {
        return allocator.refresh();
    }

    private void refreshAndReschedule() {
        try {
            allocator.refresh();
        } catch (RuntimeException e) {
            log.error("Could not read the tag list from leaf_alloc: {}. Known tags keep serving; "
                    + "check leaf.jdbc.* and that the database is up", e.getMessage());
        }
        ScheduledExecutorService current = scheduler;
        if (current != null && !current.isShutdown()) {
            Duration delay = allocator.tagsLoaded() ? interval : RETRY_UNTIL_LOADED;
            current.schedule(this::refreshAndReschedule, delay.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
