package org.leafid.server.startup;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Sets springdoc's switches of the OpenAPI description and Swagger UI from {@code leaf.http.api-docs}
 * (off by default), read as every Leaf switch is ({@code on/off}, {@code yes/no}…): springdoc's
 * own conditions take anything but {@code false} for on. Set explicitly, they also keep springdoc
 * from warning at each start that they are "enabled by default". Off, springdoc makes none of its
 * beans, which takes about a quarter of a second off every start. Added last, so a springdoc key set
 * by the operator still wins.
 */
public final class ApiDocsSwitch implements EnvironmentPostProcessor, Ordered {

    static final String KEY = "leaf.http.api-docs";

    /** After the config files and leaf.properties are read, so their leaf.http.api-docs counts. */
    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER + 10;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        boolean on;
        try {
            on = Binder.get(environment).bind(KEY, Boolean.class).orElse(false);
        } catch (BindException notASwitch) {
            return; // leaf.http's record refuses the value at start, naming the key
        }
        String value = Boolean.toString(on);
        environment.getPropertySources().addLast(new MapPropertySource("leafApiDocsSwitch",
                Map.of("springdoc.api-docs.enabled", value, "springdoc.swagger-ui.enabled", value)));
    }
}
