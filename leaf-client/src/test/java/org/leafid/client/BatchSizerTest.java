package org.leafid.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BatchSizerTest {

    private static final long MS = Duration.ofMillis(1).toNanos();

    @Test
    void aBusySourceGrowsTowardsOneFetchPerTargetBoundedByTheLargestBatch() {
        BatchSizer sizer = new BatchSizer(1000, 100 * MS);
        long now = 0;
        assertThat(sizer.next(now)).isEqualTo(100);
        // Each batch lasts 10 ms: at most doubling per fetch, up to the largest.
        assertThat(sizer.next(now += 10 * MS)).isEqualTo(200);
        assertThat(sizer.next(now += 10 * MS)).isEqualTo(400);
        assertThat(sizer.next(now += 10 * MS)).isEqualTo(800);
        assertThat(sizer.next(now += 10 * MS)).isEqualTo(1000);
        assertThat(sizer.next(now + 10 * MS)).isEqualTo(1000);
    }

    @Test
    void aSteadyRateSettlesWhereABatchLastsTheTarget() {
        BatchSizer sizer = new BatchSizer(100_000, 100 * MS);
        long now = 0;
        int size = sizer.next(now);
        double idsPerMs = 50; // 5000 per 100 ms
        for (int i = 0; i < 30; i++) {
            now += (long) (size / idsPerMs * MS);
            size = sizer.next(now);
        }
        assertThat(size).isBetween(4900, 5100);
    }

    @Test
    void aQuietSourceShrinksToOneAndCanGrowAgain() {
        BatchSizer sizer = new BatchSizer(1000, 100 * MS);
        long now = 0;
        int size = sizer.next(now);
        for (int i = 0; i < 10; i++) {
            size = sizer.next(now += 10_000 * MS);
        }
        assertThat(size).isEqualTo(1);
        assertThat(sizer.next(now + MS)).isEqualTo(2);
    }

    @Test
    void theFirstBatchIsNotLargerThanTheLargest() {
        assertThat(new BatchSizer(10, 100 * MS).next(0)).isEqualTo(10);
    }

    @Test
    void aBatchRefusedAsTooLargeHalvesTheLargestDownToOne() {
        BatchSizer sizer = new BatchSizer(5000, 100 * MS);
        assertThat(sizer.refusedAsTooLarge(1600)).isTrue();
        assertThat(sizer.largest()).isEqualTo(800);
        assertThat(sizer.next(0)).isEqualTo(100);
        assertThat(sizer.refusedAsTooLarge(2)).isTrue();
        assertThat(sizer.largest()).isEqualTo(1);
        assertThat(sizer.refusedAsTooLarge(1)).as("a batch of one refused: not a size problem").isFalse();
    }
}
