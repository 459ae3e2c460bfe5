package org.leafid.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The answers-by-status meter and the Tomcat valve that feeds it. */
@Configuration(proxyBeanMethods = false)
class HttpResponseMetersConfiguration {

    @Bean
    HttpResponseMeters httpResponseMeters(MeterRegistry registry) {
        return new HttpResponseMeters(registry);
    }

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> httpResponseCounting(HttpResponseMeters meters) {
        return factory -> factory.addEngineValves(new HttpResponseCountingValve(meters));
    }
}
