package org.leafid.autoconfigure.snowflake.kubernetes;

import org.leafid.autoconfigure.mode.ConditionalOnWorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.snowflake.SnowflakeAutoConfiguration;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.kubernetes.KubernetesWorkerIdRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Worker-id mode {@code kubernetes}: the id is the pod's StatefulSet ordinal plus
 * {@code leaf.snowflake.kubernetes.offset} ({@link PodOrdinal}), its reservation kept as the
 * {@code local} mode keeps it, in {@code workId.json} under {@code leaf.data-dir}, which on a pod is its
 * own volume: a restart, on this node or another, waits past what the last run may have issued.
 */
@AutoConfiguration(before = SnowflakeAutoConfiguration.class)
@ConditionalOnWorkerIdMode(WorkerIdMode.KUBERNETES)
@ConditionalOnMissingBean(WorkerIdRegistry.class) // an application's own registry: nothing of the mode is made
public class KubernetesWorkerIdAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(KubernetesWorkerIdAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean
    WorkerIdRegistry workerIdRegistry(KubernetesSettings settings, Environment environment,
            InstanceAddress instance, WorkerCacheFiles files, SnowflakeLayout snowflakeLayout) {
        // Read through the Environment, where the process's variables are, so a test can set it too.
        PodOrdinal pod = PodOrdinal.of(settings.podName(), environment.getProperty("HOSTNAME"));
        int workerId = pod.workerId(settings.offset(), snowflakeLayout);
        log.info("Snowflake mode kubernetes: pod {} (from {}) has ordinal {}, offset {}: worker id {}",
                pod.podName(), pod.origin(), pod.ordinal(), settings.offset(), workerId);
        return new KubernetesWorkerIdRegistry(workerId, snowflakeLayout.maxWorkerId(), instance, files.local());
    }
}
