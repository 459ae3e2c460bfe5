package org.leafid.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/** The admin API's condition on its own: a token that is set and not empty, as AdminProperties reads it. */
class AdminTokenConfiguredTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Conditioned.class);

    @Test
    void onlyASetNonEmptyTokenTurnsTheAdminApiOn() {
        runner.run(context -> assertThat(context).doesNotHaveBean("admin"));
        runner.withPropertyValues("leaf.admin.token=")
                .run(context -> assertThat(context).as("LEAF_ADMIN_TOKEN= in a compose file").doesNotHaveBean("admin"));
        runner.withPropertyValues("leaf.admin.token=s3cret-token")
                .run(context -> assertThat(context).hasBean("admin"));
    }

    @Configuration(proxyBeanMethods = false)
    static class Conditioned {

        @Bean
        @Conditional(AdminTokenConfigured.class)
        String admin() {
            return "admin";
        }
    }
}
