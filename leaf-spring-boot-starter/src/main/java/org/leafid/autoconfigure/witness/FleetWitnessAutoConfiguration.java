package org.leafid.autoconfigure.witness;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.mode.FleetWitness;
import org.leafid.autoconfigure.mode.FleetWitnessChoice;
import org.leafid.autoconfigure.snowflake.zookeeper.ZookeeperSettings;
import org.leafid.autoconfigure.snowflake.zookeeper.ZookeeperWorkerIdAutoConfiguration;
import org.leafid.core.segment.FleetReservationWitness;
import org.leafid.redis.witness.RedisReservationWitness;
import org.leafid.zookeeper.witness.ZkReservationWitness;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The fleet's witness of reservations ({@code leaf.witness.fleet}), which the segment allocator and
 * shard mode's buffer claim every block in before serving it, beside the data directory's. Made only where
 * the choice ({@link FleetWitnessChoice}) names a store; a store whose module is missing stops the
 * start naming it.
 */
@AutoConfiguration(beforeName = {"org.leafid.autoconfigure.segment.SegmentAutoConfiguration",
        "org.leafid.autoconfigure.shard.ShardAutoConfiguration"},
        after = ZookeeperWorkerIdAutoConfiguration.class,
        afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@Conditional(SegmentOrShardMode.class)
public class FleetWitnessAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(FleetWitnessAutoConfiguration.class);

    /** The bean the segment allocator looks for. */
    private static final String BEAN = FleetWitnessChoice.BEAN;

    @Bean
    @ConditionalOnMissingBean
    FleetWitnessChoice fleetWitnessChoice(Environment environment) {
        FleetWitnessChoice choice = FleetWitnessChoice.of(environment);
        log.info("Fleet witness of reservations: {} ({})", choice.witness().key(), choice.reason());
        return choice;
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional(OnRedis.class)
    @ConditionalOnClass(name = {"org.leafid.redis.witness.RedisReservationWitness",
            "org.springframework.data.redis.core.StringRedisTemplate"})
    static class Redis {

        @Bean(BEAN)
        @ConditionalOnMissingBean(name = BEAN)
        FleetReservationWitness fleetReservationWitness(ObjectProvider<StringRedisTemplate> redis,
                WitnessProperties witness,
                LeafProperties leaf) {
            StringRedisTemplate template = redis.getIfAvailable();
            if (template == null) {
                throw new LeafConfigurationException("leaf.witness.fleet", "is redis, but the application has no"
                        + " StringRedisTemplate.", "Configure Redis with spring.data.redis.*, or set"
                        + " leaf.witness.fleet=none.");
            }
            return new RedisReservationWitness(template, witness.namespaceOr(leaf.name()));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional(OnZookeeper.class)
    @ConditionalOnClass(name = "org.leafid.zookeeper.witness.ZkReservationWitness")
    static class Zookeeper {

        /** The worker-id modes' client when they made one; else the witness's own, from the same keys. */
        @Bean(initMethod = "start", destroyMethod = "close")
        @ConditionalOnMissingBean(name = "leafZookeeper")
        CuratorFramework leafZookeeper(ZookeeperSettings zk) {
            return CuratorFrameworkFactory.builder()
                    .connectString(zk.requiredAddress("zk_normal or leaf.witness.fleet=zookeeper"))
                    .sessionTimeoutMs((int) zk.sessionTimeout().toMillis())
                    .connectionTimeoutMs((int) zk.connectTimeout().toMillis())
                    .retryPolicy(new ExponentialBackoffRetry(200, 3, 2_000))
                    .build();
        }

        @Bean(BEAN)
        @ConditionalOnMissingBean(name = BEAN)
        FleetReservationWitness fleetReservationWitness(@Qualifier("leafZookeeper") CuratorFramework leafZookeeper,
                WitnessProperties witness, LeafProperties leaf) {
            return new ZkReservationWitness(leafZookeeper, witness.namespaceOr(leaf.name()));
        }
    }

    /** The choice names a store whose module is not on the class path: the start stops, naming it. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(OnModuleMissing.class)
    static class ModuleMissing {

        @Bean(BEAN)
        FleetReservationWitness fleetReservationWitness(FleetWitnessChoice choice) {
            String module = choice.witness() == FleetWitness.REDIS ? "leaf-redis (with Spring Data Redis)"
                    : "leaf-zookeeper";
            throw new LeafConfigurationException("leaf.witness.fleet", "is " + choice.witness().key() + " ("
                    + choice.reason() + "), but " + module + " is not on the class path.", "Add " + module
                    + ", or set leaf.witness.fleet=none.");
        }
    }

    static final class OnRedis extends SpringBootCondition {
        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            FleetWitnessChoice choice = FleetWitnessChoice.of(context.getEnvironment());
            return new ConditionOutcome(choice.witness() == FleetWitness.REDIS, choice.reason());
        }
    }

    static final class OnZookeeper extends SpringBootCondition {
        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            FleetWitnessChoice choice = FleetWitnessChoice.of(context.getEnvironment());
            return new ConditionOutcome(choice.witness() == FleetWitness.ZOOKEEPER, choice.reason());
        }
    }

    static final class OnModuleMissing extends SpringBootCondition {
        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            FleetWitnessChoice choice = FleetWitnessChoice.of(context.getEnvironment());
            ClassLoader loader = context.getClassLoader();
            boolean missing = switch (choice.witness()) {
                case REDIS -> !present("org.leafid.redis.witness.RedisReservationWitness", loader)
                        || !present("org.springframework.data.redis.core.StringRedisTemplate", loader);
                case ZOOKEEPER -> !present("org.leafid.zookeeper.witness.ZkReservationWitness", loader);
                default -> false;
            };
            return new ConditionOutcome(missing, choice.reason());
        }

        private static boolean present(String className, ClassLoader loader) {
            try {
                Class.forName(className, false, loader);
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }
    }
}
