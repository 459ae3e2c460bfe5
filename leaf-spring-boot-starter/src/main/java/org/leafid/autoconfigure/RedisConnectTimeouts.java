package org.leafid.autoconfigure;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import java.time.Duration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

/**
 * Gives opening a Redis connection a wait of its own, apart from the command timeout. Lettuce
 * bounds the whole connection set-up (TCP connect and handshake) by the client's command timeout:
 * with Leaf's 500 ms ({@code spring.data.redis.timeout}), a start under CPU load failed "Unable to
 * connect to Redis" although Redis was up. Here the client's timeout, which bounds the set-up,
 * is {@code spring.data.redis.connect-timeout} (5 s when unset), and every command keeps the
 * command timeout as a fixed per-command timeout, so that a Redis that does not answer still
 * fails a command fast.
 */
public final class RedisConnectTimeouts
        implements LettuceClientConfigurationBuilderCustomizer, LettuceClientOptionsBuilderCustomizer {

    /** Connection set-up when {@code spring.data.redis.connect-timeout} is unset. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final Duration commandTimeout;
    private final Duration connectTimeout;

    /**
     * @param commandTimeout {@code spring.data.redis.timeout}; {@code null} (Lettuce's 60 s) leaves
     *     the client as Spring Boot makes it
     * @param connectTimeout {@code spring.data.redis.connect-timeout}, or {@code null}
     */
    public RedisConnectTimeouts(Duration commandTimeout, Duration connectTimeout) {
        this.commandTimeout = commandTimeout;
        this.connectTimeout = connectTimeout != null ? connectTimeout : DEFAULT_CONNECT_TIMEOUT;
    }

    public static RedisConnectTimeouts of(DataRedisProperties redis) {
        return new RedisConnectTimeouts(redis.getTimeout(), redis.getConnectTimeout());
    }

    /** The set-up bound; never below the command timeout, which Spring Boot would have used. */
    @Override
    public void customize(LettuceClientConfigurationBuilder builder) {
        if (commandTimeout != null) {
            builder.commandTimeout(connectTimeout.compareTo(commandTimeout) > 0 ? connectTimeout : commandTimeout);
        }
    }

    /** Each command keeps the command timeout, now that the client's is the set-up's. */
    @Override
    public void customize(ClientOptions.Builder builder) {
        if (commandTimeout != null) {
            builder.timeoutOptions(TimeoutOptions.enabled(commandTimeout));
        }
    }
}
