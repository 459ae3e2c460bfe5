package org.leafid.autoconfigure.snowflake.local;

import org.leafid.autoconfigure.LeafValues;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.snowflake.local.*}, the settings of the {@code local} worker-id mode.
 *
 * @param workIdMap JSON object {@code {"ip:port": workerId}}, as in Leaf
 * @param workerId used when the map has no entry for this instance; at most the layout's
 *     largest worker id (1023 with Leaf's 10 bits), checked with the layout
 */
@ConfigurationProperties("leaf.snowflake.local")
public record LocalSettings(
        @DefaultValue("{}") String workIdMap,
        @DefaultValue("0") int workerId) {

    public LocalSettings {
        LeafValues.requireBetween("leaf.snowflake.local.worker-id", workerId, 0, Integer.MAX_VALUE);
    }
}
