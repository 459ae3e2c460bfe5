package org.leafid.autoconfigure.snowflake;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.mode.ConditionalOnWorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.core.DaemonThreads;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.zookeeper.MeituanLeafCacheFile;
import org.leafid.zookeeper.RecycleSweeper;
import org.leafid.zookeeper.ZkPaths;
import org.leafid.zookeeper.ZookeeperNormalRegistry;
import org.leafid.zookeeper.ZookeeperRecycleRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Worker-id modes {@code zk_normal} and {@code zk_recycle}, and the ZooKeeper client, which
 * exists only in these modes: a {@code leaf.snowflake.zk.address} alone does not open a session.
 */
@AutoConfiguration(before = SnowflakeAutoConfiguration.class)
@ConditionalOnWorkerIdMode({WorkerIdMode.ZK_NORMAL, WorkerIdMode.ZK_RECYCLE})
@ConditionalOnMissingBean(WorkerIdRegistry.class) // an application's own registry: nothing of the mode is made
public class ZookeeperWorkerIdAutoConfiguration {

    @Bean(initMethod = "start", destroyMethod = "close")
    @ConditionalOnMissingBean(name = "leafZookeeper")
    CuratorFramework leafZookeeper(SnowflakeProperties properties) {
        SnowflakeProperties.Zk zk = properties.zk();
        return CuratorFrameworkFactory.builder()
                .connectString(zk.address())
                .sessionTimeoutMs((int) zk.sessionTimeout().toMillis())
                .connectionTimeoutMs((int) zk.connectTimeout().toMillis())
                .retryPolicy(new ExponentialBackoffRetry(200, 3, 2_000))
                .build();
    }

    @Bean
    @ConditionalOnMissingBean
    ZkPaths zkPaths(LeafProperties leaf) {
        return new ZkPaths(leaf.name());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWorkerIdMode(WorkerIdMode.ZK_NORMAL)
    static class Normal {

        /** Node updates of renewals, off the renewing thread (see ZookeeperNormalRegistry). */
        @Bean(destroyMethod = "shutdownNow")
        @ConditionalOnMissingBean(name = "workerIdNodeWriter")
        ExecutorService workerIdNodeWriter() {
            return Executors.newSingleThreadExecutor(new DaemonThreads("leaf-workerid-node"));
        }

        /**
         * A restart after a kill finds the dead process's live node until ZooKeeper expires that
         * session: it waits the session timeout, plus the connect timeout as a margin for the
         * server's expiry tick, before it takes the node for a second live process and is refused.
         */
        @Bean
        @ConditionalOnMissingBean
        WorkerIdRegistry workerIdRegistry(CuratorFramework leafZookeeper, ZkPaths zkPaths,
                SnowflakeProperties properties, InstanceAddress instance, WorkerCacheFiles files,
                ExecutorService workerIdNodeWriter, SnowflakeLayout snowflakeLayout) {
            return new ZookeeperNormalRegistry(leafZookeeper, zkPaths, instance, files.registry(),
                    MeituanLeafCacheFile.of(properties.zk().leafCacheDir(), zkPaths.name(), instance.port()),
                    properties.zk().connectTimeout(), workerIdNodeWriter, snowflakeLayout.maxWorkerId(),
                    properties.zk().sessionTimeout().plus(properties.zk().connectTimeout()));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWorkerIdMode(WorkerIdMode.ZK_RECYCLE)
    static class Recycle {

        @Bean
        @ConditionalOnMissingBean
        WorkerIdRegistry workerIdRegistry(CuratorFramework leafZookeeper, ZkPaths zkPaths,
                SnowflakeProperties properties, InstanceAddress instance, SnowflakeLayout snowflakeLayout) {
            return new ZookeeperRecycleRegistry(leafZookeeper, zkPaths, instance, properties.zk().connectTimeout(),
                    snowflakeLayout.maxWorkerId());
        }

        @Bean(initMethod = "start", destroyMethod = "close")
        @ConditionalOnMissingBean
        RecycleSweeper recycleSweeper(CuratorFramework leafZookeeper, ZkPaths zkPaths,
                SnowflakeProperties properties) {
            return new RecycleSweeper(leafZookeeper, zkPaths, properties.recycle().lease(),
                    properties.recycle().sweepInterval());
        }
    }
}
