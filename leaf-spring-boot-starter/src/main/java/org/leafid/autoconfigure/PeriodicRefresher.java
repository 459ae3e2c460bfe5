package org.leafid.autoconfigure;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.leafid.core.DaemonThreads;
import org.springframework.context.SmartLifecycle;

/**
 * The one shape of a list read again and again from the database (segment mode's tags, shard
 * mode's apps): the first read in the starting thread, before the web server opens its port, so
 * that a start the database refuses stops there and a healthy one serves at once; then the reads
 * that follow on one daemon thread of their own, until the context stops. What is read, when, and
 * how a failure is logged is each refresher's.
 */
public abstract class PeriodicRefresher implements SmartLifecycle {

    private final String threadName;
    private volatile ScheduledExecutorService scheduler;

    /** @param threadName the name of the thread the reads after the first run on */
    protected PeriodicRefresher(String threadName) {
        this.threadName = threadName;
    }

    @Override
    public final synchronized void start() {
        if (scheduler != null) {
            return;
        }
        readFirst();
        ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(new DaemonThreads(threadName));
        scheduler = started;
        scheduleReads(started);
    }

    /** The first read, in the starting thread: throws what must stop the start, logs what need not. */
    protected abstract void readFirst();

    /** Schedules the reads after the first one; called once, with the refresher's own scheduler. */
    protected abstract void scheduleReads(ScheduledExecutorService scheduler);

    /** Runs {@code read} once after {@code delay}, unless the refresher is stopping. */
    protected final void scheduleOnce(Runnable read, Duration delay) {
        ScheduledExecutorService current = scheduler;
        if (current != null && !current.isShutdown()) {
            current.schedule(read, delay.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Whether the refresher stopped or is stopping: a read the stop interrupts is no database failure. */
    protected final boolean stopping() {
        ScheduledExecutorService current = scheduler;
        return current == null || current.isShutdown();
    }

    @Override
    public final synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public final boolean isRunning() {
        return scheduler != null;
    }

    /** Before the web server: a start refused for a wrong database should not open the port first. */
    @Override
    public final int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }
}
