package org.leafid.autoconfigure.shard;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.PeriodicRefresher;
import org.leafid.core.shard.MemoryShardIndexSource;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardAppDirectory;
import org.leafid.core.shard.ShardId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads the app list of {@code id_alloc} every {@code leaf.shard.refresh-interval} (and on
 * demand, after the admin API created an app), so apps added or removed by SQL take effect
 * without a restart. One read feeds the buffers and the directory the generator looks apps up
 * in; each listener (the opaque-key check, the Redis buffer's clean-up) sees the new list.
 */
public final class ShardAppRefresher extends PeriodicRefresher {

    private static final Logger log = LoggerFactory.getLogger(ShardAppRefresher.class);
    private static final long ON_DEMAND_GAP_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final MemoryShardIndexSource buffers;
    private final ShardAppDirectory directory;
    private final Duration interval;
    private final List<Consumer<List<ShardApp>>> listeners;
    /** Decides which apps this server may serve (plain or opaque); null when the store has no table of modes. */
    private final ShardAppModes modes;
    /** Per app id, when the last on-demand read for it began ({@link System#nanoTime}); at most one a second each. */
    private final AtomicLongArray lastOnDemandNanos = new AtomicLongArray(ShardId.MAX_APP_ID + 1);
    private volatile RuntimeException lastFailure;
    /** When the last scheduled read began; only the scheduler's thread uses it. */
    private long lastReadNanos = System.nanoTime();

    ShardAppRefresher(MemoryShardIndexSource buffers, ShardAppDirectory directory, Duration interval,
            List<Consumer<List<ShardApp>>> listeners, ShardAppModes modes) {
        super("leaf-shard-refresher");
        this.buffers = buffers;
        this.directory = directory;
        this.interval = interval;
        this.listeners = List.copyOf(listeners);
        this.modes = modes;
    }

    /**
     * Reads the apps now, and which of them this server may serve (their modes), before the
     * directory the generator looks apps up in changes. A listener's refusal propagates.
     *
     * @throws RuntimeException when the apps or their modes cannot be read; the directory stays as it was
     */
    public synchronized List<ShardApp> refresh() {
        List<ShardApp> apps = buffers.refresh();
        Map<Integer, String> refusals = modes == null ? Map.of() : modes.refusals(apps);
        listeners.forEach(listener -> listener.accept(apps));
        directory.update(apps, refusals);
        lastFailure = null;
        return apps;
    }

    /**
     * Records this server's mode (plain or opaque) for an app the admin API is about to create.
     *
     * @return null, or why this server may not create it (another mode is recorded for the id)
     */
    public String claimModeOfNewApp(int appId, long maxLimitId) {
        return modes == null ? null : modes.claimForNewApp(appId, maxLimitId);
    }

    /**
     * A get named an app this server does not know: re-reads the list now, so an app created on
     * another server is served at once rather than after the refresh interval. At most one such
     * read a second per app id (an unknown app id cannot make this server hammer the database); a
     * request that comes while one runs waits for it, so that it sees its result. A failed read
     * changes nothing here: the scheduled refresh retries and logs it.
     */
    public void refreshOnDemand(int appId) {
        if (appId < 0 || appId > ShardId.MAX_APP_ID) {
            return;
        }
        long now = System.nanoTime();
        long last = lastOnDemandNanos.get(appId);
        boolean due = last == 0 || now - last >= ON_DEMAND_GAP_NANOS;
        if (!due || !lastOnDemandNanos.compareAndSet(appId, last, now)) {
            synchronized (this) {
                return; // a read under way (refresh holds this lock) has finished
            }
        }
        try {
            refresh();
        } catch (RuntimeException e) {
            log.debug("Shard mode: the on-demand read of the app list failed ({})", e.toString());
        }
    }

    /** Why the last scheduled read failed, or null. */
    public RuntimeException lastFailure() {
        return lastFailure;
    }

    /** The first read in the starting thread: a wrong key stops the start before the port opens. */
    @Override
    protected void readFirst() {
        try {
            refresh();
        } catch (LeafConfigurationException e) {
            throw e;
        } catch (RuntimeException e) {
            lastFailure = e;
            log.warn("Shard mode: the app list of id_alloc could not be read ({}); retrying every second, shard IDs "
                    + "get 503 until it is", e.getMessage());
        }
    }

    @Override
    protected void scheduleReads(ScheduledExecutorService scheduler) {
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

}
