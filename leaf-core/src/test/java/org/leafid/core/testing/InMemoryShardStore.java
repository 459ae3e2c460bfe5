package org.leafid.core.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardBlock;
import org.leafid.core.shard.ShardStore;
import org.leafid.core.shard.ShardStoreException;
import org.leafid.core.shard.UnknownAppException;
import org.leafid.core.shard.UnknownShardException;

/**
 * A real {@link ShardStore} in memory with the semantics of the {@code id_alloc} SQL:
 * {@code max_id = max_id + blocks * step} applied atomically, the indexes
 * {@code old max_id + 1 .. new max_id} granted. Tests can make it fail as a database that is
 * down. Thread-safe.
 */
public final class InMemoryShardStore implements ShardStore {

    private static final class App {
        final String name;
        long maxLimitId;
        final Map<Integer, Row> rows = new TreeMap<>();

        App(String name, long maxLimitId) {
            this.name = name;
            this.maxLimitId = maxLimitId;
        }
    }

    private record Row(long maxId, int step) {}

    // Guarded by this.
    private final Map<Integer, App> apps = new TreeMap<>();
    private final AtomicInteger reservations = new AtomicInteger();
    private volatile boolean down;

    /** Inserts an app with a row per shard id given, each at {@code max_id} 0, as the admin API does. */
    public synchronized InMemoryShardStore createApp(int appId, String name, int step, long maxLimitId,
            int... shardIds) {
        if (step < 1) {
            throw new IllegalArgumentException("step must be at least 1: " + step);
        }
        App app = new App(name, maxLimitId);
        for (int shardId : shardIds) {
            app.rows.put(shardId, new Row(0, step));
        }
        apps.put(appId, app);
        return this;
    }

    /** An app with all 64 shards. */
    public InMemoryShardStore createApp(int appId, String name, int step, long maxLimitId) {
        int[] all = new int[64];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return createApp(appId, name, step, maxLimitId, all);
    }

    /** Edits one row's step, as an operator would with an UPDATE. */
    public synchronized void setStep(int appId, int shardId, int step) {
        Row row = row(appId, shardId);
        apps.get(appId).rows.put(shardId, new Row(row.maxId(), step));
    }

    /** Sets one row's {@code max_id}, as a restored backup does (back) or an operator's UPDATE. */
    public synchronized void setMaxId(int appId, int shardId, long maxId) {
        Row row = row(appId, shardId);
        apps.get(appId).rows.put(shardId, new Row(maxId, row.step()));
    }

    /** Edits the app's max_limit_id, as an operator would with an UPDATE of its rows. */
    public synchronized void setMaxLimitId(int appId, long maxLimitId) {
        App app = apps.get(appId);
        if (app == null) {
            throw new UnknownAppException(appId);
        }
        app.maxLimitId = maxLimitId;
    }

    public synchronized void removeApp(int appId) {
        apps.remove(appId);
    }

    public synchronized long maxId(int appId, int shardId) {
        return row(appId, shardId).maxId();
    }

    /** How many reservations succeeded, over every row. */
    public int reservations() {
        return reservations.get();
    }

    /** While on, every call throws {@link ShardStoreException}, as a database that is down. */
    public void down(boolean down) {
        this.down = down;
    }

    @Override
    public synchronized ShardBlock reserve(int appId, int shardId, int blocks) {
        checkUp();
        if (blocks < 1) {
            throw new IllegalArgumentException("blocks must be at least 1: " + blocks);
        }
        Row row = row(appId, shardId);
        long newMax = Math.addExact(row.maxId(), Math.multiplyExact((long) blocks, row.step()));
        apps.get(appId).rows.put(shardId, new Row(newMax, row.step()));
        reservations.incrementAndGet();
        return new ShardBlock(appId, shardId, row.maxId() + 1, newMax, row.step());
    }

    @Override
    public synchronized List<ShardApp> apps() {
        checkUp();
        List<ShardApp> listed = new ArrayList<>();
        apps.forEach((appId, app) -> listed.add(new ShardApp(appId, app.name,
                app.rows.values().stream().mapToInt(Row::step).min().orElse(1), app.maxLimitId,
                List.copyOf(app.rows.keySet()))));
        return listed;
    }

    private Row row(int appId, int shardId) {
        App app = apps.get(appId);
        if (app == null) {
            throw new UnknownAppException(appId);
        }
        Row row = app.rows.get(shardId);
        if (row == null) {
            throw new UnknownShardException(appId, shardId);
        }
        return row;
    }

    private void checkUp() {
        if (down) {
            throw new ShardStoreException("the in-memory id_alloc is down (test)", null);
        }
    }
}
