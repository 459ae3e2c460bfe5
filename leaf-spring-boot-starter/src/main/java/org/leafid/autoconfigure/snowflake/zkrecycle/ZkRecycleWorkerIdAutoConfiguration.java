package org.leafid.autoconfigure.snowflake.zkrecycle;

import org.apache.curator.framework.CuratorFramework;
import org.leafid.autoconfigure.mode.ConditionalOnWorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.snowflake.SnowflakeAutoConfiguration;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.leafid.autoconfigure.snowflake.zookeeper.ZookeeperSettings;
import org.leafid.autoconfigure.snowflake.zookeeper.ZookeeperWorkerIdAutoConfiguration;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.zookeeper.ZkPaths;
import org.leafid.zookeeper.zkrecycle.RecycleSweeper;
import org.leafid.zookeeper.zkrecycle.ZkRecycleWorkerIdRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Worker-id mode {@code zk_recycle}: a pool of ids in ZooKeeper, leased by heartbeats and swept back
 * when a holder stops ({@code leaf.snowflake.recycle.*}). The client comes from
 * {@link ZookeeperWorkerIdAutoConfiguration}.
 */
@AutoConfiguration(before = SnowflakeAutoConfiguration.class, after = ZookeeperWorkerIdAutoConfiguration.class)
@ConditionalOnWorkerIdMode(WorkerIdMode.ZK_RECYCLE)
@ConditionalOnClass(name = ZookeeperWorkerIdAutoConfiguration.MODULE_CLASS)
@ConditionalOnMissingBean(WorkerIdRegistry.class) // an application's own registry: nothing of the mode is made
public class ZkRecycleWorkerIdAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    WorkerIdRegistry workerIdRegistry(CuratorFramework leafZookeeper, ZkPaths zkPaths, ZookeeperSettings zk,
            InstanceAddress instance, SnowflakeLayout snowflakeLayout) {
        return new ZkRecycleWorkerIdRegistry(leafZookeeper, zkPaths, instance, zk.connectTimeout(),
                snowflakeLayout.maxWorkerId());
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    @ConditionalOnMissingBean
    RecycleSweeper recycleSweeper(CuratorFramework leafZookeeper, ZkPaths zkPaths, ZkRecycleSettings settings,
            SnowflakeProperties properties) {
        ZkRecycleSettings checked = settings.checkedAgainst(properties.reportInterval());
        return new RecycleSweeper(leafZookeeper, zkPaths, checked.lease(), checked.sweepInterval());
    }
}
