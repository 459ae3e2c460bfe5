package org.leafid.autoconfigure.jdbc;

import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** {@code leaf.jdbc.stores} lists databases: segment blocks come from several stores. */
public class SeveralStoresConfigured extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        boolean listed = Binder.get(context.getEnvironment())
                .bind("leaf.jdbc.stores", Bindable.listOf(Map.class)).map(List::size).orElse(0) > 0;
        return listed ? ConditionOutcome.match("leaf.jdbc.stores is set")
                : ConditionOutcome.noMatch("leaf.jdbc.stores is not set");
    }
}
