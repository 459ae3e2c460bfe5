package org.leafid.jdbc.segment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.leafid.core.segment.AllocRow;

/** The check every reservation test makes of the blocks it collected. */
final class Blocks {

    private Blocks() {}

    /** Every block {@code [maxId - step, maxId)} is its own: sorted, each starts at or after the one before ends. */
    static void assertDisjoint(List<AllocRow> blocks, long step) {
        List<Long> ends = blocks.stream().map(AllocRow::maxId).sorted().toList();
        for (int i = 1; i < ends.size(); i++) {
            assertThat(ends.get(i) - step).as("block ending at %d starts after the previous one", ends.get(i))
                    .isGreaterThanOrEqualTo(ends.get(i - 1));
        }
    }
}
