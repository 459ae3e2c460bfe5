package org.leafid.autoconfigure.snowflake.local;

import org.leafid.autoconfigure.mode.ConditionalOnWorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.snowflake.SnowflakeAutoConfiguration;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.local.LocalWorkerIdRegistry;
import org.leafid.core.worker.local.LocalWorkerIds;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** Worker-id mode {@code local}: the id from {@code leaf.snowflake.local.*}, its reservation in a local file. */
@AutoConfiguration(before = SnowflakeAutoConfiguration.class)
@ConditionalOnWorkerIdMode(WorkerIdMode.LOCAL)
@ConditionalOnMissingBean(WorkerIdRegistry.class) // an application's own registry: nothing of the mode is made
public class LocalWorkerIdAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    WorkerIdRegistry workerIdRegistry(LocalSettings settings, InstanceAddress instance, WorkerCacheFiles files,
            SnowflakeLayout snowflakeLayout) {
        LocalWorkerIds ids = WorkIdMap.parse(settings.workIdMap(), settings.workerId(), snowflakeLayout.maxWorkerId());
        return new LocalWorkerIdRegistry(ids, instance, files.local());
    }
}
