package org.leafid.core.shard;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.leafid.core.segment.ReservationWitness;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentBufferView;
import org.leafid.core.segment.SegmentIdGenerator;
import org.leafid.core.segment.SegmentLoadListener;
import org.leafid.core.segment.SegmentNotReadyException;
import org.leafid.core.segment.SegmentSettings;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.SegmentTagListener;
import org.leafid.core.segment.StepPolicy;

/**
 * {@code leaf.shard.buffer=memory}: leaf-core's double buffer (a {@link SegmentIdGenerator} per
 * (app, shard), tag {@code "app:shard"}) over the {@link ShardStore}; no server besides the
 * database. A block is the row's step, always: the step never grows, since an app's index space
 * can be small (a {@code max_limit_id} of 2^32 leaves a shard 262,143 indexes) and a restart
 * leaves the rest of its blocks unissued. A step raised in the table applies from the next
 * block; a step lowered applies after a restart (until then a block is as many rows' steps as
 * the old step was).
 *
 * <p>{@link #refresh()} follows the table: apps and shards added are served, removed ones answer
 * {@link UnknownAppException} / {@link UnknownShardException}. Thread-safe.
 */
public final class MemoryShardIndexSource implements ShardIndexSource {

    /** maxStep 1: the policy then never doubles nor halves, every load asks for the last size. */
    private static final StepPolicy FIXED_STEP = new StepPolicy(1, StepPolicy.DEFAULT_TARGET);

    private final ShardSegmentStore segments;
    private final SegmentAllocator allocator;
    /** The generators by {@code appId * 64 + shardId}, and which apps exist; replaced whole by a refresh. */
    private volatile Table table = new Table(new SegmentIdGenerator[(ShardId.MAX_APP_ID + 1) * ShardId.SHARDS],
            new boolean[ShardId.MAX_APP_ID + 1]);

    /**
     * @param loader runs block loads in the background (the server's segment loader will do)
     * @param loadWait how long a caller waits for a block when the current one is spent
     * @param loadListener told of every load (metrics); tags are {@code "app:shard"}
     * @param wentBackSkipBlocks blocks left unused above what this process reserved when an
     *     (app, shard)'s row is found below it ({@code leaf.jdbc.went-back-skip-blocks})
     * @param witness where every block is recorded before it is served, outside the store (keys
     *     {@code "app:shard"}): a restored {@code id_alloc} repeats nothing it holds
     */
    public MemoryShardIndexSource(ShardStore store, InstantSource clock, Executor loader, Duration loadWait,
            SegmentLoadListener loadListener, long wentBackSkipBlocks, ReservationWitness witness) {
        this.segments = new ShardSegmentStore(store);
        this.allocator = new SegmentAllocator(segments,
                new SegmentSettings(FIXED_STEP, loadWait, loadListener, wentBackSkipBlocks, witness), clock, loader,
                SegmentTagListener.NONE, "Shard mode's (app:shard) counters");
    }

    public MemoryShardIndexSource(ShardStore store, InstantSource clock, Executor loader, Duration loadWait,
            SegmentLoadListener loadListener) {
        this(store, clock, loader, loadWait, loadListener, SegmentSettings.DEFAULT_WENT_BACK_SKIP_BLOCKS,
                ReservationWitness.NONE);
    }

    public MemoryShardIndexSource(ShardStore store, InstantSource clock, Executor loader, Duration loadWait) {
        this(store, clock, loader, loadWait, SegmentLoadListener.NONE);
    }

    /** The buffer tag of an (app, shard), as views and load listeners name it. */
    public static String tag(int appId, int shardId) {
        return ShardSegmentStore.tag(appId, shardId);
    }

    /**
     * Reads the apps from the store and adds or drops buffers to match.
     *
     * @return the apps listed, for {@link ShardAppDirectory#update} (one read of the store for both)
     * @throws ShardStoreException when the store cannot list them; the buffers already held keep serving
     */
    public synchronized List<ShardApp> refresh() {
        allocator.refresh();
        List<ShardApp> listed = segments.lastListing();
        SegmentIdGenerator[] generators = new SegmentIdGenerator[(ShardId.MAX_APP_ID + 1) * ShardId.SHARDS];
        boolean[] apps = new boolean[ShardId.MAX_APP_ID + 1];
        Map<String, SegmentBufferView> served = allocator.views();
        for (ShardApp app : listed) {
            if (app.appId() < 0 || app.appId() > ShardId.MAX_APP_ID) {
                continue;
            }
            apps[app.appId()] = true;
            for (int shardId : app.shards()) {
                String tag = tag(app.appId(), shardId);
                if (served.containsKey(tag)) {
                    generators[slot(app.appId(), shardId)] = allocator.generator(tag);
                }
            }
        }
        table = new Table(generators, apps);
        return listed;
    }

    @Override
    public long nextIndex(int appId, int shardId) {
        SegmentIdGenerator generator = generator(appId, shardId);
        try {
            return generator.nextId();
        } catch (SegmentNotReadyException | SegmentStoreException e) {
            throw storeFailure(appId, shardId, e);
        }
    }

    @Override
    public long[] nextIndexes(int appId, int shardId, int count) {
        SegmentIdGenerator generator = generator(appId, shardId);
        try {
            return generator.nextIds(count);
        } catch (SegmentNotReadyException | SegmentStoreException e) {
            throw storeFailure(appId, shardId, e);
        }
    }

    /** Starts a load for every (app, shard) left with nothing because its last load failed; see the segment mode. */
    public int retryStarved() {
        return allocator.retryStarved();
    }

    /** Each (app, shard)'s buffer, by tag {@code "app:shard"}. */
    public Map<String, SegmentBufferView> views() {
        return allocator.views();
    }

    private SegmentIdGenerator generator(int appId, int shardId) {
        Table current = table;
        if (appId < 0 || appId > ShardId.MAX_APP_ID || !current.apps()[appId]) {
            RuntimeException failure = allocator.lastRefreshFailure();
            if (!allocator.tagsLoaded() && failure != null) {
                throw new ShardStoreException("the apps of id_alloc have not been read yet: " + failure.getMessage(),
                        failure);
            }
            throw new UnknownAppException(appId);
        }
        SegmentIdGenerator generator = shardId >= 0 && shardId < ShardId.SHARDS
                ? current.generators()[slot(appId, shardId)]
                : null;
        if (generator == null) {
            throw new UnknownShardException(appId, shardId);
        }
        return generator;
    }

    private static ShardStoreException storeFailure(int appId, int shardId, RuntimeException e) {
        return new ShardStoreException("App " + appId + " shard " + shardId + ": no index could be had from id_alloc: "
                + e.getMessage(), e);
    }

    private static int slot(int appId, int shardId) {
        return appId * ShardId.SHARDS + shardId;
    }

    private record Table(SegmentIdGenerator[] generators, boolean[] apps) {}
}
