package org.leafid.server.admin;

import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Puts {@link AdminAuth} in front of {@code /api/admin/**} while a token is configured. */
@Configuration(proxyBeanMethods = false)
@Conditional(AdminTokenConfigured.class)
class AdminConfiguration implements WebMvcConfigurer {

    private final AdminToken token;

    AdminConfiguration(AdminToken token) {
        this.token = token;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new AdminAuth(token)).addPathPatterns("/api/admin/**");
    }
}
