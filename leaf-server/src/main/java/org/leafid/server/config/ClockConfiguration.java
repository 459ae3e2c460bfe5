package org.leafid.server.config;

import java.time.InstantSource;
import org.leafid.core.Sleeper;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The time source and the way to wait, one place for the whole server. */
@Configuration(proxyBeanMethods = false)
class ClockConfiguration {

    @Bean
    InstantSource leafClock() {
        return InstantSource.system();
    }

    @Bean
    Sleeper leafSleeper() {
        return Sleeper.system();
    }
}
