package org.leafid.autoconfigure.shard;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.core.DaemonThreads;
import org.leafid.core.shard.MemoryShardIndexSource;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardAppDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Re-reads the app list of {@code id_alloc} every {@code leaf.shard.refresh-interval} (and on
 * demand, after the admin API created an app), so apps added or removed by SQL take effect
 * without a restart. One read feeds the buffers and the directory the generator looks apps up
 * in; each listener (the opaque-key check, the Redis buffer's clean-up) sees the new list.
 */
public final class ShardAppRefresher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ShardAppRefresher.class);

    private final MemoryShardIndexSource buffers;
    private final ShardAppDirectory directory;
    private final Duration interval;
    private final List<Consumer<List<ShardApp>>> listeners;
    private volatile ScheduledExecutorService scheduler;
    private volatile RuntimeException lastFailure;
    /** When the last scheduled read began; only the scheduler's thread uses it. */
    private long lastReadNanos = System.nanoTime();

    ShardAppRefresher(MemoryShardIndexSource buffers, ShardAppDirectory directory, Duration interval,
            List<Consumer<List<ShardApp>>> listeners) {
        this.buffers = buffers;
        this.directory = directory;
        this.interval = interval;
        this.listeners = List.copyOf(listeners);
    }

    /** Reads the apps now; a listener's refusal (a wrong opaque key) propagates. */
    public synchronized List<ShardApp> refresh() {
        List<ShardApp> apps = buffers.refresh();
        listeners.forEach(listener -> listener.accept(apps));
        directory.update(apps);
        lastFailure = null;
        return apps;
    }

    /** Why the last scheduled read failed, or null. */
    public RuntimeException lastFailure() {
        return lastFailure;
    }

    /** The first read in the starting thread: a wrong key stops the start before the port opens. */
    @Override
    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        try {
            refresh();
        } catch (LeafConfigurationException e) {
            throw e;
        } catch (RuntimeException e) {
            lastFailure = e;
            log.warn("Shard mode: the app list of id_alloc could not be read ({}); retrying every second, shard IDs "
                    + "get 503 until it is", e.getMessage());
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(new DaemonThreads("leaf-shard-refresher"));
        scheduler.scheduleWithFixedDelay(this::scheduledRefresh, 1, 1, TimeUnit.SECONDS);
    }

    /** Every second while the list was never read or the last read failed; otherwise every interval. */
    private void scheduledRefresh() {
        boolean due = lastFailure != null || directory.apps().isEmpty()
                || System.nanoTime() - lastReadNanos >= interval.toNanos();
        buffers.retryStarved();
        if (!due) {
            return;
        }
        lastReadNanos = System.nanoTime();
        try {
            refresh();
        } catch (RuntimeException e) {
            if (lastFailure == null) {
                log.warn("Shard mode: re-reading the app list of id_alloc failed ({}); the apps known stay as they "
                        + "are", e.toString());
            }
            lastFailure = e;
        }
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

    /** Before the web server opens its port, as the segment tag refresher. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }
}
