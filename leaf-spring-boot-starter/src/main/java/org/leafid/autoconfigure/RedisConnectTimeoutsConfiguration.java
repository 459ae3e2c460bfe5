package org.leafid.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Imported by each part of Leaf that uses Spring Boot's Redis client (the {@code redis} worker-id
 * mode, shard mode's Redis buffer): opening a connection waits its own timeout, not the 500 ms of
 * a command ({@link RedisConnectTimeouts}). Made once when both are on.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer")
public class RedisConnectTimeoutsConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(DataRedisProperties.class)
    RedisConnectTimeouts leafRedisConnectTimeouts(DataRedisProperties redis) {
        return RedisConnectTimeouts.of(redis);
    }
}
