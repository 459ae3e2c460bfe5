package org.leafid.server.status;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** What the status page reads besides the generators: the last minute's traffic and the start time. */
@Configuration(proxyBeanMethods = false)
class StatusPageConfiguration {

    /** Samples every 5 s: the page reloads every {@value StatusPage#REFRESH_SECONDS} s. */
    @Bean
    StatusPageTraffic statusPageTraffic(MeterRegistry registry, InstantSource leafClock) {
        return new StatusPageTraffic(registry, leafClock, Duration.ofSeconds(5));
    }
}
