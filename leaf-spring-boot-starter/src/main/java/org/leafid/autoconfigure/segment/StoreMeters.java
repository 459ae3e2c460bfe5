package org.leafid.autoconfigure.segment;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;
import org.leafid.core.segment.MultiStoreSegmentStore;
import org.leafid.core.segment.MultiStoreSegmentStore.StoreStatus;

/**
 * {@code leaf_store_*}, per store of {@code leaf.jdbc.stores} (tag {@code store="stores[k]"}): whether
 * it answers, the end of its last block, seconds since it last answered, blocks it gave this server.
 */
final class StoreMeters {

    private StoreMeters() {}

    static void register(MeterRegistry meters, MultiStoreSegmentStore stores) {
        for (int k = 0; k < stores.stores().size(); k++) {
            int index = k;
            String name = stores.stores().get(k).name();
            gauge(meters, "leaf_store_up", "1 while the store answers, 0 while it is skipped", name, stores,
                    all -> all.status().get(index).up() ? 1 : 0);
            gauge(meters, "leaf_store_last_block_end", "the end of the last block the store gave this server",
                    name, stores, all -> all.status().get(index).lastBlockEnd());
            gauge(meters, "leaf_store_seconds_since_answer", "seconds since the store last answered (-1: never)",
                    name, stores, all -> sinceAnswer(all.status().get(index)));
            FunctionCounter.builder("leaf_store_blocks", stores, all -> all.status().get(index).blocks())
                    .description("blocks the store gave this server").tag("store", name).register(meters);
        }
    }

    private static void gauge(MeterRegistry meters, String meter, String description, String store,
            MultiStoreSegmentStore stores, ToDoubleFunction<MultiStoreSegmentStore> value) {
        Gauge.builder(meter, stores, value).description(description).tag("store", store).register(meters);
    }

    private static double sinceAnswer(StoreStatus status) {
        return status.lastAnswerMillis() == 0 ? -1 : (System.currentTimeMillis() - status.lastAnswerMillis()) / 1000.0;
    }
}
