package org.leafid.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Meters shared by both modes; the per-mode ones are made with their mode's beans. */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    @Bean
    IdRequestTimers idRequestTimers(MeterRegistry registry) {
        return new IdRequestTimers(registry);
    }
}
