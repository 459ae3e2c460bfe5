package org.leafid.autoconfigure.snowflake.disposable;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.jdbc.LeafDataSource;
import org.leafid.autoconfigure.jdbc.LeafJdbcAutoConfiguration;
import org.leafid.autoconfigure.mode.ConditionalOnWorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.snowflake.ModeModuleMissing;
import org.leafid.autoconfigure.snowflake.SnowflakeAutoConfiguration;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.leafid.core.DaemonThreads;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.worker.StoreChangeWait;
import org.leafid.jdbc.worker.disposable.DisposableWorkerIdRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Worker-id mode {@code disposable} (uid-generator's DisposableWorkerIdAssigner): a new row in
 * {@code WORKER_NODE} per start, its ID the worker id, in Leaf's database, which must be a real
 * one. Every start uses an id for good, so a layout of 10 worker bits or fewer (1,024 starts) is
 * refused unless {@code leaf.snowflake.disposable.allow-few-worker-bits} says it is meant. Needs leaf-jdbc.
 */
@AutoConfiguration(before = SnowflakeAutoConfiguration.class, after = LeafJdbcAutoConfiguration.class)
@ConditionalOnWorkerIdMode(WorkerIdMode.DISPOSABLE)
@ConditionalOnMissingBean(WorkerIdRegistry.class) // an application's own registry: nothing of the mode is made
public class DisposableWorkerIdAutoConfiguration {

    /** The widest worker field refused without the confirming key: 1,024 starts run out fast. */
    static final int FEW_WORKER_BITS = 10;

    static final String REGISTRY = "org.leafid.jdbc.worker.disposable.DisposableWorkerIdRegistry";

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = REGISTRY)
    static class Rows {

        /** The renewals' row checks, off the renewing thread (see DisposableWorkerIdRegistry). */
        @Bean(destroyMethod = "shutdownNow")
        @ConditionalOnMissingBean(name = "workerNodeChecker")
        ExecutorService workerNodeChecker() {
            return Executors.newSingleThreadExecutor(new DaemonThreads("leaf-worker-node-check"));
        }

        @Bean
        @ConditionalOnMissingBean
        WorkerIdRegistry workerIdRegistry(LeafDataSource leafDataSource, SqlSessionFactory leafSqlSessions,
                InstanceAddress instance, DisposableSettings settings, SnowflakeLayout layout,
                StoreIdentityGuard storeIdentityGuard, SnowflakeProperties properties,
                ExecutorService workerNodeChecker) {
            if (leafDataSource.embedded()) {
                throw new LeafConfigurationException("leaf.jdbc.url", "must be set for leaf.snowflake.mode=disposable: "
                        + "worker ids are rows of WORKER_NODE in that database.", "Set leaf.jdbc.url (and create the "
                        + "table with " + SqlDialect.scripts("worker_node.sql")
                        + ", uid-generator's script), or choose another leaf.snowflake.mode.");
            }
            if (layout.workerBits() <= FEW_WORKER_BITS && !settings.allowFewWorkerBits()) {
                throw new LeafConfigurationException("leaf.snowflake.mode", "is disposable with a layout of "
                        + layout.workerBits() + " worker bits: every start takes a new worker id for good, and "
                        + (layout.maxWorkerId() + 1) + " starts would use them all.", "Use a layout with more worker "
                        + "bits (leaf.snowflake.layout=uid-generator has 20), or set "
                        + "leaf.snowflake.disposable.allow-few-worker-bits=true if that is meant.");
            }
            // A start checks its row at each renewal; ten of them let one slow database pass.
            return new DisposableWorkerIdRegistry(leafSqlSessions, instance, layout.maxWorkerId(),
                    new StoreChangeWait(leafSqlSessions, storeIdentityGuard, properties.reportInterval().multipliedBy(10),
                            Sleeper.system()), workerNodeChecker);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass(REGISTRY)
    static class ModuleMissing {

        @Bean
        WorkerIdRegistry workerIdRegistry() {
            throw ModeModuleMissing.of(WorkerIdMode.DISPOSABLE, "leaf-jdbc");
        }
    }
}
