package org.leafid.autoconfigure.jdbc;

import java.util.Set;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.util.ClassUtils;

/**
 * An application that injects a bean of segment mode ({@code SegmentAllocator}, {@code SegmentStore},
 * the format service...) without leaf-jdbc on its class path: Spring Boot's own summary would say
 * only that no such bean exists. This one names the module that makes it. Ahead of Spring Boot's
 * analyzer of the same exception, and silent for every other missing bean and when leaf-jdbc is there.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
public class JdbcModuleMissingFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException> {

    /** The packages whose beans leaf-jdbc's presence decides. */
    private static final Set<String> SEGMENT_PACKAGES = Set.of("org.leafid.core.segment", "org.leafid.core.format",
            "org.leafid.core.shard");

    /** Where leaf-jdbc is looked for: the application's class loader. */
    private final ClassLoader classLoader;

    public JdbcModuleMissingFailureAnalyzer() {
        this(JdbcModuleMissingFailureAnalyzer.class.getClassLoader());
    }

    JdbcModuleMissingFailureAnalyzer(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
        Class<?> type = cause.getBeanType();
        if (type == null || !SEGMENT_PACKAGES.contains(type.getPackageName())
                || ClassUtils.isPresent(LeafJdbcAutoConfiguration.MODULE_CLASS, classLoader)) {
            return null;
        }
        return new FailureAnalysis("The application needs a " + type.getSimpleName() + ", which Leaf makes only with "
                + "leaf-jdbc (the database segment IDs are reserved from), and leaf-jdbc is not on the class path.",
                "Add the dependency org.leafid:leaf-jdbc (docs/embedding.md), or stop injecting "
                        + type.getSimpleName() + ".", cause);
    }
}
