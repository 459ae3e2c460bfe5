package org.leafid.server.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.leafid.server.LeafServerApplication;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Boot's Redis auto-configuration is left out of the server's start unless the Redis buffer or the
 * redis worker-id mode is chosen.
 */
class RedisOnlyWhenUsedTest {

    private final SpringApplication application = new SpringApplication(LeafServerApplication.class);

    @Test
    void theMemoryBufferStartsWithoutRedisAndKeepsTheOperatorsExclusions() {
        StandardEnvironment environment = environment(Map.of(RedisOnlyWhenUsed.EXCLUDE,
                "com.example.SomeAutoConfiguration, org.example.Other"));

        new RedisOnlyWhenUsed().postProcessEnvironment(environment, application);

        assertThat(environment.getProperty(RedisOnlyWhenUsed.EXCLUDE).split(","))
                .containsExactlyInAnyOrder(concat("com.example.SomeAutoConfiguration", "org.example.Other"));
    }

    @Test
    void noBufferSetMeansMemory() {
        StandardEnvironment environment = environment(Map.of());

        new RedisOnlyWhenUsed().postProcessEnvironment(environment, application);

        assertThat(environment.getProperty(RedisOnlyWhenUsed.EXCLUDE).split(","))
                .containsExactlyInAnyOrderElementsOf(RedisOnlyWhenUsed.REDIS_AUTO_CONFIGURATIONS);
    }

    @Test
    void theRedisBufferKeepsRedisHoweverItIsSpelled() {
        for (String value : new String[] {"redis", "REDIS", " Redis "}) {
            StandardEnvironment environment = environment(Map.of("leaf.shard.buffer", value));

            new RedisOnlyWhenUsed().postProcessEnvironment(environment, application);

            assertThat(environment.getProperty(RedisOnlyWhenUsed.EXCLUDE)).as(value).isNull();
        }
    }

    /** Read through the Binder, as ShardProperties reads it: its relaxed spellings are the record's. */
    @Test
    void theBufferIsReadAsTheRecordReadsIt() {
        StandardEnvironment environment = environment(Map.of("leaf.shard.buffer", "Re-dis"));

        new RedisOnlyWhenUsed().postProcessEnvironment(environment, application);

        assertThat(environment.getProperty(RedisOnlyWhenUsed.EXCLUDE)).isNull();
    }

    /** Not a buffer: Redis stays out, and the start fails later where ShardProperties is bound, naming the key. */
    @Test
    void aValueThatIsNoBufferLeavesRedisOutWithoutFailingHere() {
        StandardEnvironment environment = environment(Map.of("leaf.shard.buffer", "memcached"));

        new RedisOnlyWhenUsed().postProcessEnvironment(environment, application);

        assertThat(environment.getProperty(RedisOnlyWhenUsed.EXCLUDE).split(","))
                .containsExactlyInAnyOrderElementsOf(RedisOnlyWhenUsed.REDIS_AUTO_CONFIGURATIONS);
    }

    /** Read through the Binder, as SnowflakeProperties reads it, and only with snowflake on. */
    @Test
    void theRedisWorkerIdModeKeepsRedisHoweverItIsSpelled() {
        for (String value : new String[] {"redis", "REDIS", " Redis "}) {
            StandardEnvironment environment = environment(Map.of("leaf.snowflake.mode", value));

            new RedisOnlyWhenUsed().postProcessEnvironment(environment, application);

            assertThat(environment.getProperty(RedisOnlyWhenUsed.EXCLUDE)).as(value).isNull();
        }
        StandardEnvironment off = environment(Map.of("leaf.snowflake.mode", "redis", "leaf.snowflake.enable", "no"));
        new RedisOnlyWhenUsed().postProcessEnvironment(off, application);
        assertThat(off.getProperty(RedisOnlyWhenUsed.EXCLUDE).split(","))
                .as("snowflake off: nothing uses Redis")
                .containsExactlyInAnyOrderElementsOf(RedisOnlyWhenUsed.REDIS_AUTO_CONFIGURATIONS);
    }

    @Test
    void anotherWorkerIdModeOrOneThatIsNoModeLeavesRedisOut() {
        for (String value : new String[] {"zk_recycle", "local", "rediss"}) {
            StandardEnvironment environment = environment(Map.of("leaf.snowflake.mode", value,
                    "leaf.snowflake.zk.address", "127.0.0.1:2181"));

            new RedisOnlyWhenUsed().postProcessEnvironment(environment, application);

            assertThat(environment.getProperty(RedisOnlyWhenUsed.EXCLUDE).split(",")).as(value)
                    .containsExactlyInAnyOrderElementsOf(RedisOnlyWhenUsed.REDIS_AUTO_CONFIGURATIONS);
        }
    }

    @Test
    void everyNamedAutoConfigurationExists() {
        // A renamed class in a Boot upgrade would silently bring the Redis client back.
        for (String name : RedisOnlyWhenUsed.REDIS_AUTO_CONFIGURATIONS) {
            assertThat(org.springframework.util.ClassUtils.isPresent(name, getClass().getClassLoader()))
                    .as(name).isTrue();
        }
    }

    private static StandardEnvironment environment(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return environment;
    }

    private static String[] concat(String... first) {
        return java.util.stream.Stream.concat(java.util.Arrays.stream(first),
                RedisOnlyWhenUsed.REDIS_AUTO_CONFIGURATIONS.stream()).toArray(String[]::new);
    }
}
