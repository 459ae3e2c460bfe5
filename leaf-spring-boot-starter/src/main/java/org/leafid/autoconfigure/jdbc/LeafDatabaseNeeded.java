package org.leafid.autoconfigure.jdbc;

import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.autoconfigure.mode.ConditionalOnShardMode;
import org.leafid.autoconfigure.mode.ConditionalOnWorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;

/**
 * The {@code leaf.jdbc} database is needed by segment mode, shard mode and the {@code mysql} and
 * {@code disposable} worker-id modes.
 */
class LeafDatabaseNeeded extends AnyNestedCondition {

    LeafDatabaseNeeded() {
        super(ConfigurationPhase.REGISTER_BEAN);
    }

    @ConditionalOnLeafSwitch("leaf.segment.enable")
    static class SegmentMode {}

    @ConditionalOnWorkerIdMode(WorkerIdMode.MYSQL)
    static class MysqlWorkerIds {}

    @ConditionalOnWorkerIdMode(WorkerIdMode.DISPOSABLE)
    static class DisposableWorkerIds {}

    @ConditionalOnShardMode
    static class ShardMode {}
}
