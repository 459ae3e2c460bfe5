package org.leafid.autoconfigure.snowflake.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.mode.ConditionalOnWorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdModeChoice;
import org.leafid.autoconfigure.snowflake.ModeModuleMissing;
import org.leafid.autoconfigure.snowflake.SnowflakeAutoConfiguration;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.zookeeper.ZkPaths;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the two ZooKeeper worker-id modes share ({@code zk_normal}, {@code zk_recycle}): the
 * ZooKeeper client, which exists only in these modes (a {@code leaf.snowflake.zk.address} alone does
 * not open a session), and the cluster's paths. Each mode's registry comes from its own
 * auto-configuration. Needs leaf-zookeeper, which brings Curator.
 */
@AutoConfiguration(before = SnowflakeAutoConfiguration.class)
@ConditionalOnWorkerIdMode({WorkerIdMode.ZK_NORMAL, WorkerIdMode.ZK_RECYCLE})
@ConditionalOnMissingBean(WorkerIdRegistry.class) // an application's own registry: nothing of the mode is made
public class ZookeeperWorkerIdAutoConfiguration {

    /** A class of leaf-zookeeper: with it come Curator and ZooKeeper's client. */
    public static final String MODULE_CLASS = "org.leafid.zookeeper.ZkPaths";

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = MODULE_CLASS)
    static class Client {

        @Bean(initMethod = "start", destroyMethod = "close")
        @ConditionalOnMissingBean(name = "leafZookeeper")
        CuratorFramework leafZookeeper(ZookeeperSettings zk, WorkerIdModeChoice workerIdModeChoice) {
            return CuratorFrameworkFactory.builder()
                    .connectString(zk.requiredAddress(workerIdModeChoice.mode().key()))
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
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass(MODULE_CLASS)
    static class ModuleMissing {

        @Bean
        WorkerIdRegistry workerIdRegistry(WorkerIdModeChoice workerIdModeChoice) {
            throw ModeModuleMissing.of(workerIdModeChoice.mode(), "leaf-zookeeper");
        }
    }
}
