package org.leafid.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Runs made from IDs and from bounds, and the IDs written out again. */
class IdRangesTest {

    @Test
    void runsFromIdsAndFromBoundsWriteOutTheSameIds() {
        long[] ids = {5, 6, 7, 20, 21, 40};
        IdRanges fromIds = IdRanges.of(ids, 1);
        assertThat(fromIds.ranges()).isEqualTo(3);
        IdRanges fromBounds = IdRanges.ofRuns(new long[] {5, 7, 20, 21, 40, 40, 0, 0}, 3, 1);
        assertThat(fromBounds.count()).isEqualTo(6);
        assertThat(fromBounds.toArray()).containsExactly(ids);
        assertThat(fromIds.toArray()).containsExactly(ids);
    }

    @Test
    void runsWithAStrideStepByIt() {
        long step = 1 << 14;
        IdRanges shard = IdRanges.ofRuns(new long[] {3 * step + 7, 5 * step + 7, 9 * step + 7, 9 * step + 7}, 2, step);
        assertThat(shard.toArray()).containsExactly(3 * step + 7, 4 * step + 7, 5 * step + 7, 9 * step + 7);
        assertThat(IdRanges.of(shard.toArray(), step).ranges()).isEqualTo(2);
    }

    @Test
    void runsThatAreNotWholeStepsOrRunBackwardsAreRefused() {
        assertThatThrownBy(() -> IdRanges.ofRuns(new long[] {10, 9}, 1, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IdRanges.ofRuns(new long[] {0, 5}, 1, 2))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IdRanges.ofRuns(new long[] {0, Integer.MAX_VALUE}, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2^31-1");
        assertThatThrownBy(() -> IdRanges.ofRuns(new long[] {0, 5}, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IdRanges.ofRuns(new long[] {-1, Long.MAX_VALUE}, 1, 1))
                .as("a run whose length would overflow").isInstanceOf(IllegalArgumentException.class);
        assertThat(IdRanges.ofRuns(new long[] {1, Integer.MAX_VALUE}, 1, 1).count()).isEqualTo(Integer.MAX_VALUE);
    }
}
