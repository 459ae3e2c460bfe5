package org.leafid.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardBlock;
import org.leafid.core.shard.ShardStore;
import org.leafid.core.shard.UnknownAppException;
import org.leafid.core.shard.UnknownShardException;

/** id_alloc in memory with its block rule (old max_id + 1 .. new max_id); thread-safe. */
final class MemoryShardStore implements ShardStore {

    private record Row(int step, long maxId) {
    }

    private final Map<Integer, Map<Integer, Row>> apps = new TreeMap<>();
    private final AtomicLong reservedIndexes = new AtomicLong();

    /** Adds an app with rows for shards 0 .. shards-1, each at {@code maxId}. */
    synchronized MemoryShardStore app(int appId, int shards, int step, long maxId) {
        Map<Integer, Row> rows = new TreeMap<>();
        for (int shard = 0; shard < shards; shard++) {
            rows.put(shard, new Row(step, maxId));
        }
        apps.put(appId, rows);
        return this;
    }

    @Override
    public synchronized ShardBlock reserve(int appId, int shardId, int blocks) {
        Map<Integer, Row> rows = apps.get(appId);
        if (rows == null) {
            throw new UnknownAppException(appId);
        }
        Row row = rows.get(shardId);
        if (row == null) {
            throw new UnknownShardException(appId, shardId);
        }
        long newMax = row.maxId() + (long) row.step() * blocks;
        rows.put(shardId, new Row(row.step(), newMax));
        reservedIndexes.addAndGet(newMax - row.maxId());
        return new ShardBlock(appId, shardId, row.maxId() + 1, newMax, row.step());
    }

    @Override
    public synchronized List<ShardApp> apps() {
        List<ShardApp> result = new ArrayList<>();
        apps.forEach((appId, rows) -> result.add(new ShardApp(appId, "app-" + appId,
                rows.values().iterator().next().step(), 0, new ArrayList<>(rows.keySet()))));
        return result;
    }

    synchronized long maxId(int appId, int shardId) {
        return apps.get(appId).get(shardId).maxId();
    }

    /** Every index reserved by any caller since the start. */
    long reservedIndexes() {
        return reservedIndexes.get();
    }
}
