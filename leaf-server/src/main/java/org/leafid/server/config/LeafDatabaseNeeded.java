package org.leafid.server.config;

import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/** The {@code leaf.jdbc} database is needed by segment mode and by the {@code mysql} worker-id mode. */
class LeafDatabaseNeeded extends AnyNestedCondition {

    LeafDatabaseNeeded() {
        super(ConfigurationPhase.REGISTER_BEAN);
    }

    @ConditionalOnProperty(name = "leaf.segment.enable", havingValue = "true", matchIfMissing = true)
    static class SegmentMode {}

    @ConditionalOnProperty(name = "leaf.snowflake.mode", havingValue = "mysql")
    static class MysqlWorkerIds {}
}
