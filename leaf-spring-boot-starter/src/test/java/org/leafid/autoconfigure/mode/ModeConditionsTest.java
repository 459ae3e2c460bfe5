package org.leafid.autoconfigure.mode;

import static org.assertj.core.api.Assertions.assertThat;

import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.autoconfigure.shard.ConditionalOnShardBuffer;
import org.leafid.autoconfigure.shard.ShardProperties;
import org.mockito.Mockito;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Each of the starter's own conditions on its own, in a context that holds nothing else: what a key
 * switches, whichever way the Binder lets it be written, as Spring Boot tests its conditions.
 */
class ModeConditionsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Conditioned.class);

    @Test
    void aLeafSwitchIsOnUnsetAndReadAsTheRecordsReadIt() {
        runner.run(context -> assertThat(context).hasBean("segmentOn").doesNotHaveBean("segmentOff"));
        runner.withPropertyValues("leaf.segment.enable=no")
                .run(context -> assertThat(context).hasBean("segmentOff").doesNotHaveBean("segmentOn"));
        runner.withPropertyValues("leaf.segment.enable=yes")
                .run(context -> assertThat(context).hasBean("segmentOn").doesNotHaveBean("segmentOff"));
        runner.withPropertyValues("leaf.segment.enable=maybe")
                .run(context -> assertThat(context).getFailure().hasStackTraceContaining("leaf.segment.enable"));
    }

    @Test
    void shardModeFollowsItsSwitchAndUnsetTheEmbeddedDatabase() {
        runner.run(context -> assertThat(context).as("embedded database in use").hasBean("shardMode"));
        runner.withPropertyValues("leaf.shard.enable=off").run(context -> assertThat(context).doesNotHaveBean("shardMode"));
        runner.withPropertyValues("leaf.shard.enable=on", "leaf.jdbc.url=jdbc:mysql://db/leaf")
                .run(context -> assertThat(context).hasBean("shardMode"));
        runner.withPropertyValues("leaf.jdbc.url=jdbc:mysql://db/leaf")
                .run(context -> assertThat(context).as("a Leaf database has no id_alloc").doesNotHaveBean("shardMode"));
        runner.withPropertyValues("leaf.segment.enable=false")
                .run(context -> assertThat(context).doesNotHaveBean("shardMode"));
        runner.withBean(DataSource.class, () -> Mockito.mock(DataSource.class))
                .run(context -> assertThat(context).as("the application's own DataSource").doesNotHaveBean("shardMode"));
    }

    @Test
    void theWorkerIdModeIsAnySpellingOfItOrMeituanLeafsDefault() {
        runner.run(context -> assertThat(context).hasBean("localWorkerIds").doesNotHaveBean("zookeeperWorkerIds"));
        runner.withPropertyValues("leaf.snowflake.mode=Zk-Normal")
                .run(context -> assertThat(context).hasBean("zookeeperWorkerIds").doesNotHaveBean("localWorkerIds"));
        runner.withPropertyValues("leaf.snowflake.zk.address=10.0.0.1:2181")
                .run(context -> assertThat(context).hasBean("zookeeperWorkerIds"));
        runner.withPropertyValues("leaf.snowflake.mode=KUBERNETES", "leaf.snowflake.zk.address=10.0.0.1:2181")
                .run(context -> assertThat(context).as("an explicit mode wins over Leaf's rule")
                        .hasBean("kubernetesWorkerIds").doesNotHaveBean("zookeeperWorkerIds")
                        .doesNotHaveBean("localWorkerIds"));
        runner.withPropertyValues("leaf.snowflake.mode=REDIS", "leaf.snowflake.zk.address=10.0.0.1:2181")
                .run(context -> assertThat(context).hasBean("redisWorkerIds").doesNotHaveBean("zookeeperWorkerIds")
                        .doesNotHaveBean("localWorkerIds"));
        runner.withPropertyValues("leaf.snowflake.enable=no", "leaf.snowflake.mode=local")
                .run(context -> assertThat(context).as("snowflake mode off").doesNotHaveBean("localWorkerIds"));
    }

    @Test
    void theShardBufferIsReadAsShardPropertiesReadsIt() {
        runner.run(context -> assertThat(context).hasBean("memoryBuffer").doesNotHaveBean("redisBuffer"));
        runner.withPropertyValues("leaf.shard.buffer=REDIS")
                .run(context -> assertThat(context).hasBean("redisBuffer").doesNotHaveBean("memoryBuffer"));
    }

    /** One bean per condition and value, each a plain string. */
    @Configuration(proxyBeanMethods = false)
    static class Conditioned {

        @Bean
        @ConditionalOnLeafSwitch("leaf.segment.enable")
        String segmentOn() {
            return "on";
        }

        @Bean
        @ConditionalOnLeafSwitch(value = "leaf.segment.enable", on = false)
        String segmentOff() {
            return "off";
        }

        @Bean
        @ConditionalOnShardMode
        String shardMode() {
            return "shard";
        }

        @Bean
        @ConditionalOnWorkerIdMode(WorkerIdMode.LOCAL)
        String localWorkerIds() {
            return "local";
        }

        @Bean
        @ConditionalOnWorkerIdMode(WorkerIdMode.KUBERNETES)
        String kubernetesWorkerIds() {
            return "kubernetes";
        }

        @Bean
        @ConditionalOnWorkerIdMode({WorkerIdMode.ZK_NORMAL, WorkerIdMode.ZK_RECYCLE})
        String zookeeperWorkerIds() {
            return "zookeeper";
        }

        @Bean
        @ConditionalOnWorkerIdMode(WorkerIdMode.REDIS)
        String redisWorkerIds() {
            return "redis";
        }

        @Bean
        @ConditionalOnShardBuffer(ShardProperties.Buffer.MEMORY)
        String memoryBuffer() {
            return "memory";
        }

        @Bean
        @ConditionalOnShardBuffer(ShardProperties.Buffer.REDIS)
        String redisBuffer() {
            return "redis";
        }
    }
}
