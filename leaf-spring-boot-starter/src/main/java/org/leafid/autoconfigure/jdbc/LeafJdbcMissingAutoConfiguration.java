package org.leafid.autoconfigure.jdbc;

import java.util.List;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * An application without leaf-jdbc (an optional dependency of the starter): segment mode, on by
 * default, and shard mode, on by default with the embedded database, are off unless their switch
 * or a {@code leaf.jdbc} url asks for them, and one that asks stops the start naming the
 * dependency to add, rather than running without it. A bean of segment mode the application
 * injects is named the same way by {@link JdbcModuleMissingFailureAnalyzer}.
 */
@AutoConfiguration
@ConditionalOnMissingClass(LeafJdbcAutoConfiguration.MODULE_CLASS)
public class LeafJdbcMissingAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(LeafJdbcMissingAutoConfiguration.class);

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnLeafSwitch("leaf.segment.enable")
    static class Segment {

        @Bean
        InitializingBean leafSegmentWithoutJdbc(Environment environment) {
            return () -> {
                if (environment.containsProperty("leaf.segment.enable")) {
                    throw missing("leaf.segment.enable", "is true");
                }
                // A database named for Leaf is as clear a wish for segment IDs as the switch.
                for (String key : List.of("leaf.jdbc.url", "leaf.jdbc.stores[0].url")) {
                    if (environment.containsProperty(key)) {
                        throw missing(key, "is set");
                    }
                }
                log.info("Segment mode is off: leaf-jdbc is not on the class path (add org.leafid:leaf-jdbc to "
                        + "issue segment IDs, or set leaf.segment.enable=false to say so)");
            };
        }
    }

    @Bean
    InitializingBean leafShardWithoutJdbc(Environment environment) {
        return () -> {
            if (Binder.get(environment).bind("leaf.shard.enable", Boolean.class).orElse(false)) {
                throw missing("leaf.shard.enable", "is true");
            }
        };
    }

    private static LeafConfigurationException missing(String key, String state) {
        return new LeafConfigurationException(key, state + ", but leaf-jdbc, which holds the database this mode "
                + "issues from, is not on the class path.", "Add the dependency org.leafid:leaf-jdbc "
                + "(docs/embedding.md), or switch the mode off.");
    }
}
