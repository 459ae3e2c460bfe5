package org.leafid.core.shard;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code id_alloc} seen as a {@link SegmentStore}, so that leaf-core's double buffer serves shard
 * indexes unchanged. One tag per (app, shard), {@code "app:shard"}.
 *
 * <p>The two block rules differ: Leaf's generator issues {@code maxId - size .. maxId - 1} of a
 * row it reserved {@code size = max(requested, row step)} of, while a {@code id_alloc}
 * reservation makes {@code old max_id + 1 .. new max_id} this caller's. So every reservation
 * here answers with {@code maxId = last index + 1} and {@code step} = exactly the block's size,
 * and the block is never smaller than what was requested: the generator then issues exactly the
 * block, neither an index of another instance's block nor one this instance was not given.
 */
final class ShardSegmentStore implements SegmentStore {

    private static final Logger log = LoggerFactory.getLogger(ShardSegmentStore.class);
    /** A row's step lowered between two reservations costs one retry; more means it keeps changing. */
    private static final int ATTEMPTS = 3;

    private final ShardStore store;
    /** The row step each tag's last reservation found, to turn a requested size into blocks. */
    private final Map<String, Integer> rowSteps = new ConcurrentHashMap<>();
    private volatile List<ShardApp> lastListing = List.of();

    ShardSegmentStore(ShardStore store) {
        this.store = store;
    }

    static String tag(int appId, int shardId) {
        return appId + ":" + shardId;
    }

    @Override
    public AllocRow reserve(String tag, long requestedStep) {
        int colon = tag.indexOf(':');
        int appId = Integer.parseInt(tag, 0, colon, 10);
        int shardId = Integer.parseInt(tag, colon + 1, tag.length(), 10);
        for (int attempt = 1; ; attempt++) {
            long rowStep = rowSteps.getOrDefault(tag, listedStep(appId));
            long blocks = Math.max(1, (requestedStep + rowStep - 1) / rowStep);
            ShardBlock block = store.reserve(appId, shardId, (int) Math.min(Integer.MAX_VALUE, blocks));
            rowSteps.put(tag, block.rowStep());
            if (block.size() >= requestedStep && block.size() <= Integer.MAX_VALUE) {
                return new AllocRow(tag, block.lastIndex() + 1, (int) block.size());
            }
            // Skipped indexes are never issued by anyone: a gap, never a repeat.
            log.warn("App {} shard {}: block {}..{} skipped: {} indexes were needed and the row's step is now {}",
                    appId, shardId, block.firstIndex(), block.lastIndex(), requestedStep, block.rowStep());
            if (attempt == ATTEMPTS || block.size() > Integer.MAX_VALUE) {
                throw new ShardStoreException("App " + appId + " shard " + shardId + ": the reserved block of "
                        + block.size() + " indexes does not fit the buffer's request of " + requestedStep
                        + " (the row's step changed during the reservation, or step x blocks passed 2^31); "
                        + "set a step below 2^31 and do not change it while the server runs", null);
            }
        }
    }

    @Override
    public String table() {
        return "id_alloc";
    }

    /** Lists the apps, and remembers them: {@link MemoryShardIndexSource} needs them to name an unknown row. */
    @Override
    public List<String> tags() {
        List<ShardApp> apps = store.apps();
        lastListing = apps;
        List<String> tags = new ArrayList<>();
        for (ShardApp app : apps) {
            if (app.appId() < 0 || app.appId() > ShardId.MAX_APP_ID) {
                continue; // no ID can name it; ShardAppDirectory logs it
            }
            for (int shardId : app.shards()) {
                if (shardId >= 0 && shardId < ShardId.SHARDS) {
                    tags.add(tag(app.appId(), shardId));
                }
            }
        }
        return tags;
    }

    List<ShardApp> lastListing() {
        return lastListing;
    }

    private int listedStep(int appId) {
        for (ShardApp app : lastListing) {
            if (app.appId() == appId) {
                return Math.max(1, app.step());
            }
        }
        return 1;
    }
}
