package org.leafid.autoconfigure.mode;

import javax.sql.DataSource;
import org.leafid.core.segment.SegmentStore;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * Shard mode's switch. Unlike the other modes it has no fixed default: its table, {@code id_alloc},
 * is in the embedded database (with a sample app) but not in a Leaf database nor in an
 * application's own, so unset it is on exactly when Leaf's embedded H2 database is the one in use
 * (docs/decisions/0001-shard-mode-comes-on-by-itself-only.md): no {@code leaf.jdbc.url}, segment
 * mode on, and the application has neither a {@link DataSource} nor a {@link SegmentStore} of its
 * own. An application that embeds the starter and wants shard mode on its own database says
 * {@code leaf.shard.enable=true}.
 * The value is bound as the record binds it ({@code yes}/{@code off} too).
 *
 * <p>Evaluated when beans are registered, after the application's own definitions, so that they
 * can be seen.
 */
public final class ShardModeCondition extends SpringBootCondition implements ConfigurationCondition {

    /** A class of leaf-jdbc, the optional module that holds shard mode's database. */
    private static final String LEAF_JDBC_CLASS = "org.leafid.jdbc.SqlDialect";

    @Override
    public ConfigurationPhase getConfigurationPhase() {
        return ConfigurationPhase.REGISTER_BEAN;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Environment environment = context.getEnvironment();
        Binder binder = Binder.get(environment);
        if (binder.bind("leaf.shard.enable", Boolean.class).isBound()) {
            boolean on = binder.bind("leaf.shard.enable", Boolean.class).get();
            return new ConditionOutcome(on, "leaf.shard.enable is " + on);
        }
        if (!ClassUtils.isPresent(LEAF_JDBC_CLASS, context.getClassLoader())) {
            return ConditionOutcome.noMatch("leaf.shard.enable is unset and leaf-jdbc is not on the class path");
        }
        if (!binder.bind("leaf.jdbc.url", String.class).map(String::isBlank).orElse(true)) {
            return ConditionOutcome.noMatch("leaf.shard.enable is unset and leaf.jdbc.url is set "
                    + "(a Leaf database has no id_alloc)");
        }
        if (binder.bind("leaf.jdbc.stores", org.springframework.boot.context.properties.bind.Bindable.listOf(
                java.util.Map.class)).map(stores -> !stores.isEmpty()).orElse(false)) {
            return ConditionOutcome.noMatch("leaf.shard.enable is unset and leaf.jdbc.stores is set "
                    + "(several stores serve segment mode only)");
        }
        if (!binder.bind("leaf.segment.enable", Boolean.class).orElse(true)) {
            return ConditionOutcome.noMatch("leaf.shard.enable is unset and segment mode is off "
                    + "(the embedded database is not in use)");
        }
        ConfigurableListableBeanFactory beans = context.getBeanFactory();
        if (beans != null && (has(beans, DataSource.class) || has(beans, SegmentStore.class))) {
            return ConditionOutcome.noMatch("leaf.shard.enable is unset and the application has a DataSource "
                    + "or SegmentStore of its own (the embedded database is not in use)");
        }
        return ConditionOutcome.match("leaf.shard.enable is unset and the embedded database is in use");
    }

    private static boolean has(ConfigurableListableBeanFactory beans, Class<?> type) {
        return beans.getBeanNamesForType(type, true, false).length > 0;
    }
}
