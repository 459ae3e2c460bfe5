package org.leafid.autoconfigure.client;

import io.micrometer.core.instrument.MeterRegistry;
import org.leafid.client.LeafClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A {@link LeafClient} from {@code leaf.client.*}, when leaf-client is on the class path and
 * {@code leaf.client.servers} is set; closed with the context. Gives way to a client the
 * application defines.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass(LeafClient.class)
@ConditionalOnProperty(prefix = "leaf.client", name = "servers")
@EnableConfigurationProperties(LeafClientProperties.class)
public class LeafClientAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LeafClient leafClient(LeafClientProperties properties, ObjectProvider<MeterRegistry> registry) {
        return LeafClient.builder()
                .servers(properties.servers())
                .connectTimeout(properties.connectTimeout())
                .requestTimeout(properties.requestTimeout())
                .maxBatch(properties.maxBatch())
                .maxRangeBatch(properties.maxRangeBatch())
                .prefetchThreshold(properties.prefetchThreshold())
                .maxWait(properties.maxWait())
                .targetFetchInterval(properties.targetFetchInterval())
                .meterRegistry(registry.getIfAvailable())
                .build();
    }

    /** With the application's client or this one: the class's conditions hold for both. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = "leafClientHealthIndicator")
        LeafClientHealthIndicator leafClientHealthIndicator(LeafClient leafClient) {
            return new LeafClientHealthIndicator(leafClient);
        }
    }
}
