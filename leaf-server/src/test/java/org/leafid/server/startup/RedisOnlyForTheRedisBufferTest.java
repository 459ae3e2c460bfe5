package org.leafid.server.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.leafid.server.LeafServerApplication;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** Boot's Redis auto-configuration is left out of the server's start unless the Redis buffer is chosen. */
class RedisOnlyForTheRedisBufferTest {

    private final SpringApplication application = new SpringApplication(LeafServerApplication.class);

    @Test
    void theMemoryBufferStartsWithoutRedisAndKeepsTheOperatorsExclusions() {
        StandardEnvironment environment = environment(Map.of(RedisOnlyForTheRedisBuffer.EXCLUDE,
                "com.example.SomeAutoConfiguration, org.example.Other"));

        new RedisOnlyForTheRedisBuffer().postProcessEnvironment(environment, application);

        assertThat(environment.getProperty(RedisOnlyForTheRedisBuffer.EXCLUDE).split(","))
                .containsExactlyInAnyOrder(concat("com.example.SomeAutoConfiguration", "org.example.Other"));
    }

    @Test
    void noBufferSetMeansMemory() {
        StandardEnvironment environment = environment(Map.of());

        new RedisOnlyForTheRedisBuffer().postProcessEnvironment(environment, application);

        assertThat(environment.getProperty(RedisOnlyForTheRedisBuffer.EXCLUDE).split(","))
                .containsExactlyInAnyOrderElementsOf(RedisOnlyForTheRedisBuffer.REDIS_AUTO_CONFIGURATIONS);
    }

    @Test
    void theRedisBufferKeepsRedisHoweverItIsSpelled() {
        for (String value : new String[] {"redis", "REDIS", " Redis "}) {
            StandardEnvironment environment = environment(Map.of("leaf.shard.buffer", value));

            new RedisOnlyForTheRedisBuffer().postProcessEnvironment(environment, application);

            assertThat(environment.getProperty(RedisOnlyForTheRedisBuffer.EXCLUDE)).as(value).isNull();
        }
    }

    /** Read through the Binder, as ShardProperties reads it: its relaxed spellings are the record's. */
    @Test
    void theBufferIsReadAsTheRecordReadsIt() {
        StandardEnvironment environment = environment(Map.of("leaf.shard.buffer", "Re-dis"));

        new RedisOnlyForTheRedisBuffer().postProcessEnvironment(environment, application);

        assertThat(environment.getProperty(RedisOnlyForTheRedisBuffer.EXCLUDE)).isNull();
    }

    /** Not a buffer: Redis stays out, and the start fails later where ShardProperties is bound, naming the key. */
    @Test
    void aValueThatIsNoBufferLeavesRedisOutWithoutFailingHere() {
        StandardEnvironment environment = environment(Map.of("leaf.shard.buffer", "memcached"));

        new RedisOnlyForTheRedisBuffer().postProcessEnvironment(environment, application);

        assertThat(environment.getProperty(RedisOnlyForTheRedisBuffer.EXCLUDE).split(","))
                .containsExactlyInAnyOrderElementsOf(RedisOnlyForTheRedisBuffer.REDIS_AUTO_CONFIGURATIONS);
    }

    @Test
    void everyNamedAutoConfigurationExists() {
        // A renamed class in a Boot upgrade would silently bring the Redis client back.
        for (String name : RedisOnlyForTheRedisBuffer.REDIS_AUTO_CONFIGURATIONS) {
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
                RedisOnlyForTheRedisBuffer.REDIS_AUTO_CONFIGURATIONS.stream()).toArray(String[]::new);
    }
}
