package org.leafid.autoconfigure.properties;

import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.format.FormatsProperties;
import org.leafid.autoconfigure.jdbc.JdbcProperties;
import org.leafid.autoconfigure.jdbc.LeafJdbcAutoConfiguration;
import org.leafid.autoconfigure.segment.SegmentAutoConfiguration;
import org.leafid.autoconfigure.segment.SegmentProperties;
import org.leafid.autoconfigure.shard.ShardAutoConfiguration;
import org.leafid.autoconfigure.shard.ShardProperties;
import org.leafid.autoconfigure.shard.redis.RedisShardBufferAutoConfiguration;
import org.leafid.autoconfigure.snowflake.LayoutPresetConverter;
import org.leafid.autoconfigure.snowflake.SnowflakeAutoConfiguration;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.leafid.autoconfigure.snowflake.disposable.DisposableSettings;
import org.leafid.autoconfigure.snowflake.kubernetes.KubernetesSettings;
import org.leafid.autoconfigure.snowflake.local.LocalSettings;
import org.leafid.autoconfigure.snowflake.redis.RedisModeSettings;
import org.leafid.autoconfigure.snowflake.zkrecycle.ZkRecycleSettings;
import org.leafid.autoconfigure.snowflake.zookeeper.ZookeeperSettings;
import org.leafid.autoconfigure.witness.FleetWitnessAutoConfiguration;
import org.leafid.autoconfigure.witness.WitnessProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Every {@code leaf.*} record, bound and validated whether or not its feature is on: a wrong
 * value stops the start even for a mode that is switched off (it would otherwise surface only on
 * the day the mode is switched on), and the server's pages read {@code leaf.segment.enable} and
 * {@code leaf.snowflake.enable} from the records themselves.
 *
 * <p>Before every auto-configuration that reads the records; the order is said here rather than
 * there, so that this package, which knows every record, is the only one that knows this class.
 */
@AutoConfiguration(before = {LeafJdbcAutoConfiguration.class, SegmentAutoConfiguration.class,
        FleetWitnessAutoConfiguration.class, SnowflakeAutoConfiguration.class, ShardAutoConfiguration.class, RedisShardBufferAutoConfiguration.class})
@EnableConfigurationProperties({LeafProperties.class, SegmentProperties.class,
        SnowflakeProperties.class, ShardProperties.class, LocalSettings.class, KubernetesSettings.class,
        ZookeeperSettings.class, ZkRecycleSettings.class, DisposableSettings.class, RedisModeSettings.class,
        FormatsProperties.class, WitnessProperties.class})
public class LeafPropertiesAutoConfiguration {

    /** {@code leaf.jdbc.*} reads its url with leaf-jdbc, an optional dependency: bound where that is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = LeafJdbcAutoConfiguration.MODULE_CLASS)
    @EnableConfigurationProperties(JdbcProperties.class)
    static class Jdbc {}

    /** {@code leaf.snowflake.layout=uid-generator}: a preset written on the prefix of the widths. */
    @Bean
    @ConfigurationPropertiesBinding
    static LayoutPresetConverter leafLayoutPresetConverter() {
        return new LayoutPresetConverter();
    }
}
