package org.leafid.core.segment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.leafid.testing.InMemorySegmentStore;

/**
 * A block the store answers below what the generator already reserved is reported to the load
 * listener ({@code leaf_store_went_back_total}) with where serving goes on from, and never served.
 */
class WentBackReportTest {

    private static final int STEP = 100;

    @Test
    void aRowSetBackIsReportedOnceAndNothingIsServedTwice() {
        InMemorySegmentStore store = new InMemorySegmentStore().put("orders", 0, STEP);
        List<long[]> reports = new ArrayList<>();
        SegmentLoadListener listener = new SegmentLoadListener() {
            @Override
            public void loaded(String tag, Duration took, long size) {}

            @Override
            public void failed(String tag, Duration took, RuntimeException cause) {}

            @Override
            public void wentBack(String tag, long blockStart, long servedFrom) {
                reports.add(new long[] {blockStart, servedFrom});
            }
        };
        SegmentIdGenerator generator = new SegmentIdGenerator("orders", store,
                new SegmentSettings(new StepPolicy(STEP, Duration.ofMinutes(15)), Duration.ofSeconds(10), listener, 2),
                InstantSource.system(), Runnable::run);
        Set<Long> served = new HashSet<>();
        for (int i = 0; i < 250; i++) {
            assertThat(served.add(generator.nextId())).isTrue();
        }
        assertThat(reports).as("no report while the row moves on").isEmpty();

        store.put("orders", 0, STEP); // set back below everything served
        for (int i = 0; i < 250; i++) {
            assertThat(served.add(generator.nextId())).isTrue();
        }

        assertThat(reports).hasSize(1);
        assertThat(reports.get(0)[0]).isLessThan(reports.get(0)[1]);
        assertThat(served).allSatisfy(id -> assertThat(id).isNotNegative()).hasSize(500);
    }
}
