package org.leafid.server.admin;

import javax.sql.DataSource;
import org.leafid.server.config.ConditionalOnLeafSwitch;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The {@code leaf_alloc} access of the tags view and the admin API; it exists with segment mode. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnLeafSwitch("leaf.segment.enable")
class TagsConfiguration {

    @Bean
    TagTable tagTable(DataSource leafDataSource) {
        return new TagTable(leafDataSource);
    }
}
