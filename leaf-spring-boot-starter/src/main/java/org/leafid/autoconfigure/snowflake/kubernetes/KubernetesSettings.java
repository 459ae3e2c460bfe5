package org.leafid.autoconfigure.snowflake.kubernetes;

import org.leafid.autoconfigure.LeafValues;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.snowflake.kubernetes.*}, the settings of the {@code kubernetes} worker-id mode.
 *
 * @param podName the pod name whose StatefulSet ordinal ({@code name-N}) gives the worker id; empty
 *     means the {@code HOSTNAME} environment variable, which Kubernetes sets to it
 * @param offset added to the ordinal, so that several StatefulSets share one layout's worker ids
 *     (one takes 0..9, the next 10..19…); ordinal + offset must be at most the layout's largest
 *     worker id
 */
@ConfigurationProperties("leaf.snowflake.kubernetes")
public record KubernetesSettings(
        String podName,
        @DefaultValue("0") int offset) {

    public KubernetesSettings {
        LeafValues.requireBetween("leaf.snowflake.kubernetes.offset", offset, 0, Integer.MAX_VALUE);
    }
}
