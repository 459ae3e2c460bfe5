package org.leafid.autoconfigure.witness;

import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.autoconfigure.mode.ConditionalOnShardMode;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;

/**
 * Matches when segment mode or shard mode is on: both reserve blocks of a table ({@code leaf_alloc},
 * {@code id_alloc}) and claim each in the fleet's witness before serving it.
 */
final class SegmentOrShardMode extends AnyNestedCondition {

    SegmentOrShardMode() {
        super(ConfigurationPhase.REGISTER_BEAN);
    }

    @ConditionalOnLeafSwitch("leaf.segment.enable")
    static final class Segment {
    }

    @ConditionalOnShardMode
    static final class Shard {
    }
}
