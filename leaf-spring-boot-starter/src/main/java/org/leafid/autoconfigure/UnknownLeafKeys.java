package org.leafid.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Stops the start on a {@code leaf.*} key that no record reads ({@code leaf.snowflake.enbale}),
 * naming the closest valid key: such a typo was ignored without a word, leaving the default on.
 * Checks files, command-line arguments and Java system properties, but not OS environment
 * variables: the environment of a server or a CI job holds unrelated {@code LEAF_*} variables
 * ({@code LEAF_TEST_JDBC_URL}…) that relaxed binding would read as {@code leaf.test.jdbc.url}.
 */
class UnknownLeafKeys implements EnvironmentPostProcessor, Ordered {

    private final Log log;

    UnknownLeafKeys(DeferredLogFactory logFactory) {
        this.log = logFactory.getLog(UnknownLeafKeys.class);
    }

    /** After {@link LeafPropertiesFiles}, so its files are checked too. */
    @Override
    public int getOrder() {
        return LeafPropertiesFiles.ORDER + 1;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        LeafKeys valid = LeafKeys.fromMetadata(application.getClassLoader());
        if (valid.isEmpty()) {
            log.warn("No leaf.* keys in " + LeafKeys.METADATA
                    + " (built without spring-boot-configuration-processor?): unknown leaf.* keys are not checked");
            return;
        }
        Map<String, String> unknown = new LinkedHashMap<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (source instanceof EnumerablePropertySource<?> enumerable && !isEnvironmentVariables(source)) {
                for (String key : enumerable.getPropertyNames()) {
                    if (key.toLowerCase(Locale.ROOT).startsWith("leaf.") && !valid.contains(key)) {
                        unknown.putIfAbsent(key, where(source, key));
                    }
                }
            }
        }
        if (!unknown.isEmpty()) {
            String where = unknown.size() == 1 ? unknown.values().iterator().next()
                    : unknown.entrySet().stream().map(entry -> entry.getKey() + ": " + entry.getValue())
                            .collect(Collectors.joining("; "));
            throw new LeafConfigurationException(String.join(", ", unknown.keySet()),
                    (unknown.size() == 1 ? "is not a Leaf key" : "are not Leaf keys") + " (" + where + ").",
                    unknown.keySet().stream().map(key -> fix(valid, key)).collect(Collectors.joining(" ")));
        }
    }

    private static boolean isEnvironmentVariables(PropertySource<?> source) {
        return source instanceof SystemEnvironmentPropertySource
                || StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(source.getName());
    }

    private static String fix(LeafKeys valid, String key) {
        return valid.closest(key)
                .map(closest -> "Did you mean " + closest + " instead of " + key + "?")
                .orElse("No Leaf key is close to " + key + ": remove it (leaf.properties.example lists every key).");
    }

    private static String where(PropertySource<?> source, String key) {
        if (source instanceof OriginLookup<?>) {
            @SuppressWarnings("unchecked")
            Origin origin = ((OriginLookup<String>) source).getOrigin(key);
            if (origin != null) {
                return origin.toString();
            }
        }
        return switch (source.getName()) {
            case "commandLineArgs" -> "command-line argument";
            case StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME -> "Java system property";
            default -> source.getName();
        };
    }
}
