package org.leafid.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

/**
 * Opening a connection waits the connect timeout, each command the command timeout: Lettuce bounds
 * the connection set-up by the client's timeout, so that one becomes the connect timeout and the
 * commands get theirs as a fixed per-command timeout.
 */
class RedisConnectTimeoutsTest {

    @Test
    void theSetUpWaitsTheConnectTimeoutAndEachCommandTheCommandTimeout() {
        RedisConnectTimeouts timeouts = new RedisConnectTimeouts(Duration.ofMillis(500), Duration.ofSeconds(5));

        LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder()
                .commandTimeout(Duration.ofMillis(500)); // what Spring Boot sets from spring.data.redis.timeout
        timeouts.customize(client);
        ClientOptions.Builder options = ClientOptions.builder().timeoutOptions(TimeoutOptions.enabled());
        timeouts.customize(options);

        assertThat(client.build().getCommandTimeout()).isEqualTo(Duration.ofSeconds(5));
        TimeoutOptions commands = options.build().getTimeoutOptions();
        assertThat(commands.isTimeoutCommands()).isTrue();
        assertThat(commands.getSource().getTimeUnit().toMillis(commands.getSource().getTimeout(null)))
                .isEqualTo(500);
    }

    @Test
    void withoutAConnectTimeoutTheSetUpWaitsFiveSeconds() {
        LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder()
                .commandTimeout(Duration.ofMillis(500));
        new RedisConnectTimeouts(Duration.ofMillis(500), null).customize(client);

        assertThat(client.build().getCommandTimeout()).isEqualTo(RedisConnectTimeouts.DEFAULT_CONNECT_TIMEOUT);
    }

    @Test
    void aCommandTimeoutLongerThanTheConnectTimeoutIsKeptForBoth() {
        LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder()
                .commandTimeout(Duration.ofSeconds(10));
        new RedisConnectTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(1)).customize(client);

        assertThat(client.build().getCommandTimeout()).isEqualTo(Duration.ofSeconds(10));
    }
}
