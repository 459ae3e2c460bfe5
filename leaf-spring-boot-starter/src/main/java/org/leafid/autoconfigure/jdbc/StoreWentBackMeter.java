package org.leafid.autoconfigure.jdbc;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.leafid.core.segment.SegmentLoadListener;

/**
 * {@code leaf_store_went_back_total{table}}: blocks the store answered below numbers already
 * reserved — this server's own, its data directory's witness or the fleet's (ZooKeeper, Redis) —
 * and that were carried past them instead of served: a restored backup, a failover to a lagging
 * replica, or {@code max_id} set back together with its {@code leaf_high_water} mark. Registered at
 * 0 from the start, so an alert on any increase sees "none", not "no data"; the WARN line names
 * the tag or (app, shard).
 */
public final class StoreWentBackMeter implements SegmentLoadListener {

    private final Counter wentBack;

    /** @param table {@code leaf_alloc} (segment tags and formats) or {@code id_alloc} (shard apps) */
    public StoreWentBackMeter(MeterRegistry registry, String table) {
        this.wentBack = Counter.builder("leaf.store.went.back")
                .description("Blocks answered below numbers already reserved (a restore, a lagging failover), "
                        + "carried past them")
                .tag("table", table).register(registry);
    }

    @Override
    public void loaded(String tag, Duration took, long size) {
        // Only the blocks that went back are counted here.
    }

    @Override
    public void failed(String tag, Duration took, RuntimeException cause) {
        // Failed loads are leaf_segment_load_seconds{outcome="failure"}'s.
    }

    @Override
    public void wentBack(String tag, long blockStart, long servedFrom) {
        wentBack.increment();
    }
}
