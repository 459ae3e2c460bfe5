package org.leafid.server.config;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.InstantSource;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.ReservingWorkerIdHolder;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.snowflake.WorkerIdHolder;
import org.leafid.core.snowflake.WorkerIdRegistry;
import org.leafid.server.metrics.SnowflakeMeters;
import org.leafid.server.worker.InstanceAddress;
import org.leafid.server.worker.WorkerCacheFiles;
import org.leafid.server.worker.WorkerIdHealthIndicator;
import org.leafid.server.worker.jdbc.JdbcWorkerIdRegistry;
import org.leafid.server.worker.local.LocalWorkerIdRegistry;
import org.leafid.server.worker.local.LocalWorkerIds;
import org.leafid.server.worker.zk.MeituanLeafCacheFile;
import org.leafid.server.worker.zk.RecycleSweeper;
import org.leafid.server.worker.zk.ZkPaths;
import org.leafid.server.worker.zk.ZookeeperNormalRegistry;
import org.leafid.server.worker.zk.ZookeeperRecycleRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Snowflake mode: this instance's address, its worker-id registry and holder, and the generator.
 * Component scanning registers the nested classes on their own, so each repeats the enable check
 * ({@link ConditionalOnWorkerIdMode} includes it).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnLeafSwitch("leaf.snowflake.enable")
class SnowflakeConfiguration {

    @Bean
    InstanceAddress instanceAddress(SnowflakeProperties properties, Environment environment) {
        int port = properties.port() != null
                ? properties.port()
                : environment.getProperty("server.port", Integer.class, 8080);
        if (port <= 0) {
            throw new LeafConfigurationException("leaf.snowflake.port",
                    "is unset and server.port is " + port + ", but the port names this instance's worker id.",
                    "Set leaf.snowflake.port to the port this instance is known by (the same on every restart).");
        }
        String ip = properties.ip() == null || properties.ip().isBlank() ? InstanceAddress.detectIp() : properties.ip();
        return new InstanceAddress(ip, port);
    }

    @Bean
    WorkerCacheFiles workerCacheFiles(LeafProperties leaf, InstanceAddress instance) {
        return new WorkerCacheFiles(leaf.dataDir(), leaf.name(), instance.port());
    }

    @Bean
    SnowflakeLayout snowflakeLayout(SnowflakeProperties properties, InstantSource leafClock) {
        SnowflakeLayout layout = new SnowflakeLayout(properties.twepoch());
        long now = leafClock.millis();
        if (now < properties.twepoch() || now > layout.lastRepresentableMillis()) {
            throw new LeafConfigurationException("leaf.snowflake.twepoch", "is " + properties.twepoch()
                    + ", which does not fit the clock (" + now + "): it must be in the past and less than 2^41 ms ago.",
                    "Remove it to use Leaf's default 1288834974657, or keep the value your IDs were issued with.");
        }
        return layout;
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    WorkerIdHolder workerIdHolder(WorkerIdRegistry workerIdRegistry, SnowflakeProperties properties,
            InstantSource leafClock, Sleeper leafSleeper) {
        return new ReservingWorkerIdHolder(workerIdRegistry, leafClock, leafSleeper, properties.reportInterval(),
                properties.maxStartWait());
    }

    /** Closing it (before the holder, which it depends on) records how far IDs really went. */
    @Bean(destroyMethod = "close")
    SnowflakeGenerator snowflakeGenerator(SnowflakeLayout snowflakeLayout, WorkerIdHolder workerIdHolder,
            InstantSource leafClock, Sleeper leafSleeper, SnowflakeProperties properties) {
        return new SnowflakeGenerator(snowflakeLayout, workerIdHolder, leafClock, leafSleeper,
                ThreadLocalRandom.current(), properties.maxBackwardsWait());
    }

    @Bean
    SnowflakeMeters snowflakeMeters(MeterRegistry registry, SnowflakeGenerator snowflakeGenerator,
            WorkerIdHolder workerIdHolder, InstantSource leafClock) {
        return new SnowflakeMeters(registry, snowflakeGenerator, workerIdHolder, leafClock);
    }

    @Bean
    SnowflakeStartReport snowflakeStartReport(WorkerIdHolder workerIdHolder, Environment environment,
            InstanceAddress instance) {
        return new SnowflakeStartReport(workerIdHolder, WorkerIdModeCondition.choice(environment), instance);
    }

    @Bean
    WorkerIdHealthIndicator workerIdHealthIndicator(WorkerIdHolder workerIdHolder, InstantSource leafClock) {
        return new WorkerIdHealthIndicator(workerIdHolder, leafClock);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWorkerIdMode(WorkerIdMode.LOCAL)
    static class Local {

        @Bean
        WorkerIdRegistry workerIdRegistry(SnowflakeProperties properties, InstanceAddress instance,
                WorkerCacheFiles files) {
            LocalWorkerIds ids = LocalWorkerIds.parse(properties.local().workIdMap(), properties.local().workerId());
            return new LocalWorkerIdRegistry(ids, instance, files.local());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWorkerIdMode(WorkerIdMode.MYSQL)
    static class Mysql {

        /** Row updates of renewals, off the renewing thread (see JdbcWorkerIdRegistry). */
        @Bean(destroyMethod = "shutdownNow")
        ExecutorService workerIdRowWriter() {
            return Executors.newSingleThreadExecutor(new DaemonThreads("leaf-workerid-row"));
        }

        @Bean
        WorkerIdRegistry workerIdRegistry(DataSource leafDataSource, JdbcProperties jdbc, InstanceAddress instance,
                WorkerCacheFiles files, ExecutorService workerIdRowWriter) {
            if (jdbc.embedded()) {
                throw new LeafConfigurationException("leaf.jdbc.url", "must be set for leaf.snowflake.mode=mysql: "
                        + "worker ids are rows of leaf_workerid_alloc in that database.", "Set leaf.jdbc.url (and "
                        + "create the table with sql/leaf_workerid_alloc.sql), or choose another leaf.snowflake.mode.");
            }
            return new JdbcWorkerIdRegistry(leafDataSource, instance, files.registry(), workerIdRowWriter);
        }
    }

    /** The ZooKeeper client of the zk modes, and only of them (a zk.address alone does not open a session). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWorkerIdMode({WorkerIdMode.ZK_NORMAL, WorkerIdMode.ZK_RECYCLE})
    static class Zookeeper {

        @Bean(initMethod = "start", destroyMethod = "close")
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
        ZkPaths zkPaths(LeafProperties leaf) {
            return new ZkPaths(leaf.name());
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnWorkerIdMode(WorkerIdMode.ZK_NORMAL)
        static class Normal {

            /** Node updates of renewals, off the renewing thread (see ZookeeperNormalRegistry). */
            @Bean(destroyMethod = "shutdownNow")
            ExecutorService workerIdNodeWriter() {
                return Executors.newSingleThreadExecutor(new DaemonThreads("leaf-workerid-node"));
            }

            @Bean
            WorkerIdRegistry workerIdRegistry(CuratorFramework leafZookeeper, ZkPaths zkPaths,
                    SnowflakeProperties properties, InstanceAddress instance, WorkerCacheFiles files,
                    ExecutorService workerIdNodeWriter) {
                return new ZookeeperNormalRegistry(leafZookeeper, zkPaths, instance, files.registry(),
                        MeituanLeafCacheFile.of(properties.zk().leafCacheDir(), zkPaths.name(), instance.port()),
                        properties.zk().connectTimeout(), workerIdNodeWriter);
            }
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnWorkerIdMode(WorkerIdMode.ZK_RECYCLE)
        static class Recycle {

            @Bean
            WorkerIdRegistry workerIdRegistry(CuratorFramework leafZookeeper, ZkPaths zkPaths,
                    SnowflakeProperties properties, InstanceAddress instance) {
                return new ZookeeperRecycleRegistry(leafZookeeper, zkPaths, instance,
                        properties.zk().connectTimeout());
            }

            @Bean(initMethod = "start", destroyMethod = "close")
            RecycleSweeper recycleSweeper(CuratorFramework leafZookeeper, ZkPaths zkPaths,
                    SnowflakeProperties properties) {
                return new RecycleSweeper(leafZookeeper, zkPaths, properties.recycle().lease(),
                        properties.recycle().sweepInterval());
            }
        }
    }
}
