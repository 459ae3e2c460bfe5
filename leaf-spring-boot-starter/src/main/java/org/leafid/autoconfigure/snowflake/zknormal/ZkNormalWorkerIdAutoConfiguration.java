package org.leafid.autoconfigure.snowflake.zknormal;

import org.apache.curator.framework.CuratorFramework;
import org.leafid.autoconfigure.mode.ConditionalOnWorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.snowflake.SnowflakeAutoConfiguration;
import org.leafid.autoconfigure.snowflake.zookeeper.ZookeeperSettings;
import org.leafid.autoconfigure.snowflake.zookeeper.ZookeeperWorkerIdAutoConfiguration;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.zookeeper.ZkPaths;
import org.leafid.zookeeper.zknormal.ZkNormalWorkerIdRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Worker-id mode {@code zk_normal}, Meituan Leaf's: a persistent sequential node per ip:port under
 * {@code forever/}, whose sequence number is the worker id, and an ephemeral {@code live/} node of
 * the process holding it. The client comes from {@link ZookeeperWorkerIdAutoConfiguration}.
 */
@AutoConfiguration(before = SnowflakeAutoConfiguration.class, after = ZookeeperWorkerIdAutoConfiguration.class)
@ConditionalOnWorkerIdMode(WorkerIdMode.ZK_NORMAL)
@ConditionalOnClass(name = ZookeeperWorkerIdAutoConfiguration.MODULE_CLASS)
@ConditionalOnMissingBean(WorkerIdRegistry.class) // an application's own registry: nothing of the mode is made
public class ZkNormalWorkerIdAutoConfiguration {

    /**
     * A restart after a kill finds the dead process's live node until ZooKeeper expires that
     * session: it waits the session timeout, plus the connect timeout as a margin for the
     * server's expiry tick, before it takes the node for a second live process and is refused.
     */
    @Bean
    @ConditionalOnMissingBean
    WorkerIdRegistry workerIdRegistry(CuratorFramework leafZookeeper, ZkPaths zkPaths, ZookeeperSettings zk,
            InstanceAddress instance, WorkerCacheFiles files, SnowflakeLayout snowflakeLayout) {
        return new ZkNormalWorkerIdRegistry(leafZookeeper, zkPaths, instance, files.registry(), zk.connectTimeout(),
                snowflakeLayout.maxWorkerId(), zk.sessionTimeout().plus(zk.connectTimeout()));
    }
}
