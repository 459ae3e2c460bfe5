package org.leafid.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A connection to a test Redis with the bounded waits the server should configure too: short
 * command and connect timeouts, and commands rejected at once while disconnected instead of
 * queued until the reconnection.
 */
public final class TestRedis implements AutoCloseable {

    public static final int LOCAL_PORT = 6379;
    static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);
    /**
     * Opening a connection to a freshly started redis-server took over 500 ms on a CI machine under
     * heavy load; while Redis is down commands are rejected at once, so this bounds no ID.
     */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    private final LettuceConnectionFactory factory;
    private final StringRedisTemplate template;

    public TestRedis(int port) {
        this(new RedisStandaloneConfiguration("127.0.0.1", port));
    }

    /** Through Sentinels, as {@code spring.data.redis.sentinel.*} configures it. */
    public static TestRedis sentinel(String masterName, List<Integer> sentinelPorts) {
        RedisSentinelConfiguration sentinels = new RedisSentinelConfiguration();
        sentinels.master(masterName);
        sentinelPorts.forEach(port -> sentinels.sentinel("127.0.0.1", port));
        return new TestRedis(sentinels);
    }

    private TestRedis(RedisConfiguration server) {
        LettuceClientConfiguration client = LettuceClientConfiguration.builder()
                .commandTimeout(COMMAND_TIMEOUT)
                .clientOptions(ClientOptions.builder()
                        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                        .socketOptions(SocketOptions.builder().connectTimeout(CONNECT_TIMEOUT).build())
                        .build())
                .build();
        factory = server instanceof RedisSentinelConfiguration sentinels
                ? new LettuceConnectionFactory(sentinels, client)
                : new LettuceConnectionFactory((RedisStandaloneConfiguration) server, client);
        factory.afterPropertiesSet();
        factory.start();
        template = new StringRedisTemplate(factory);
    }

    public StringRedisTemplate template() {
        return template;
    }

    @Override
    public void close() {
        factory.destroy();
    }
}
