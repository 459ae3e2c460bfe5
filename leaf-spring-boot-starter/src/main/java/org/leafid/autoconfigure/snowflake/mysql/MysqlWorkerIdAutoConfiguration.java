package org.leafid.autoconfigure.snowflake.mysql;

import java.time.Duration;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.jdbc.LeafDataSource;
import org.leafid.autoconfigure.jdbc.LeafJdbcAutoConfiguration;
import org.leafid.autoconfigure.mode.ConditionalOnWorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.snowflake.ModeModuleMissing;
import org.leafid.autoconfigure.snowflake.SnowflakeAutoConfiguration;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.leafid.core.Sleeper;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.worker.StoreChangeWait;
import org.leafid.jdbc.worker.mysql.MysqlWorkerIdRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Worker-id mode {@code mysql}: a row per instance in {@code leaf_workerid_alloc} of Leaf's
 * database (MySQL, MariaDB or PostgreSQL), which must be a real one (the embedded H2 file cannot be
 * shared by instances). Needs leaf-jdbc.
 */
@AutoConfiguration(before = SnowflakeAutoConfiguration.class, after = LeafJdbcAutoConfiguration.class)
@ConditionalOnWorkerIdMode(WorkerIdMode.MYSQL)
@ConditionalOnMissingBean(WorkerIdRegistry.class) // an application's own registry: nothing of the mode is made
public class MysqlWorkerIdAutoConfiguration {

    static final String REGISTRY = "org.leafid.jdbc.worker.mysql.MysqlWorkerIdRegistry";

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = REGISTRY)
    static class Rows {

        @Bean
        @ConditionalOnMissingBean
        WorkerIdRegistry workerIdRegistry(LeafDataSource leafDataSource, SqlSessionFactory leafSqlSessions,
                InstanceAddress instance, WorkerCacheFiles files,
                SnowflakeLayout snowflakeLayout, SnowflakeProperties properties, StoreIdentityGuard storeIdentityGuard) {
            if (leafDataSource.embedded()) {
                throw new LeafConfigurationException("leaf.jdbc.url", "must be set for leaf.snowflake.mode=mysql: "
                        + "worker ids are rows of leaf_workerid_alloc in that database.", "Set leaf.jdbc.url (and "
                        + "create the table with " + SqlDialect.scripts("leaf_workerid_alloc.sql")
                        + "), or choose another leaf.snowflake.mode.");
            }
            // A holder silent for ten renewals has stopped; fewer would let one slow database make a live one look dead.
            Duration holderLease = properties.reportInterval().multipliedBy(10);
            return new MysqlWorkerIdRegistry(leafSqlSessions, instance, files.registry(),
                    snowflakeLayout.maxWorkerId(), holderLease,
                    new StoreChangeWait(leafSqlSessions, storeIdentityGuard, holderLease, Sleeper.system()));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass(REGISTRY)
    static class ModuleMissing {

        @Bean
        WorkerIdRegistry workerIdRegistry() {
            throw ModeModuleMissing.of(WorkerIdMode.MYSQL, "leaf-jdbc");
        }
    }
}
