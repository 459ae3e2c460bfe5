package org.leafid.autoconfigure;

import java.time.InstantSource;
import org.leafid.core.Sleeper;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The time source and the way to wait, one place for every generator. An application (or a
 * test) that defines its own {@code leafClock} or {@code leafSleeper} bean replaces them.
 */
@AutoConfiguration
public class ClockAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "leafClock")
    InstantSource leafClock() {
        return InstantSource.system();
    }

    @Bean
    @ConditionalOnMissingBean(name = "leafSleeper")
    Sleeper leafSleeper() {
        return Sleeper.system();
    }
}
