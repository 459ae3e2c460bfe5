package org.leafid.autoconfigure.segment;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import org.leafid.autoconfigure.jdbc.StoreWentBackMeter;
import org.leafid.core.segment.SegmentIdGenerator;
import org.leafid.core.segment.SegmentLoadListener;
import org.leafid.core.segment.SegmentTagListener;

/**
 * The per-tag segment meters, following the tag list: {@code leaf_ids_issued_total{mode="segment",key}},
 * {@code leaf_segment_remaining{tag}}, {@code leaf_segment_step{tag}} and
 * {@code leaf_segment_load_seconds{tag,outcome}}, all registered when a tag appears (so at 0 before
 * the first load or failure); and {@code leaf_store_went_back_total{table="leaf_alloc"}} ({@link StoreWentBackMeter}). Issued IDs are read from the generator's blocks at scrape time, so
 * counting costs the hot path nothing.
 */
public final class SegmentMeters implements SegmentTagListener, SegmentLoadListener {

    private static final String SUCCESS = "success";
    private static final String FAILURE = "failure";

    private final MeterRegistry registry;
    private final StoreWentBackMeter wentBack;

    public SegmentMeters(MeterRegistry registry) {
        this.registry = registry;
        this.wentBack = new StoreWentBackMeter(registry, "leaf_alloc");
    }

    @Override
    public void tagAdded(SegmentIdGenerator generator) {
        String tag = generator.tag();
        FunctionCounter.builder("leaf.ids.issued", generator, SegmentIdGenerator::issuedCount)
                .description("IDs handed out").tags("mode", "segment", "key", tag).register(registry);
        Gauge.builder("leaf.segment.remaining", generator, g -> g.view().available())
                .description("Numbers left in the current and the loaded next block").tag("tag", tag)
                .register(registry);
        Gauge.builder("leaf.segment.step", generator, g -> g.view().step())
                .description("Size of the last block reserved").tag("tag", tag).register(registry);
        // Both outcomes from the start, at 0: a rate over a series that appears only with the first
        // failure shows nothing (not 0) until then, and alerts on it cannot tell "none" from "no data".
        loadTimer(tag, SUCCESS);
        loadTimer(tag, FAILURE);
    }

    @Override
    public void tagRemoved(String tag) {
        for (Meter meter : registry.getMeters()) {
            Meter.Id id = meter.getId();
            boolean ofTag = tag.equals(id.getTag("tag"))
                    || ("segment".equals(id.getTag("mode")) && tag.equals(id.getTag("key")));
            if (ofTag && id.getName().startsWith("leaf.")) {
                registry.remove(meter);
            }
        }
    }

    @Override
    public void loaded(String tag, Duration took, long size) {
        loadTimer(tag, SUCCESS).record(took);
    }

    @Override
    public void failed(String tag, Duration took, RuntimeException cause) {
        loadTimer(tag, FAILURE).record(took);
    }

    @Override
    public void wentBack(String tag, long blockStart, long servedFrom) {
        wentBack.wentBack(tag, blockStart, servedFrom);
    }

    private Timer loadTimer(String tag, String outcome) {
        return Timer.builder("leaf.segment.load").description("Time to reserve a block in the database")
                .tags("tag", tag, "outcome", outcome).register(registry);
    }
}
