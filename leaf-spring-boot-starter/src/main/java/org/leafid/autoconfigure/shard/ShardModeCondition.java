package org.leafid.autoconfigure.shard;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Shard mode's switch. Unlike the other modes it has no fixed default: its table, {@code id_alloc},
 * is in the embedded database (with a sample app) but not in a Leaf database, so unset it is on
 * exactly when {@code leaf.jdbc.url} is unset (DESIGN.md, "Shard mode"). The value is bound as
 * the record binds it ({@code yes}/{@code off} too).
 */
public final class ShardModeCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        boolean explicit = Binder.get(context.getEnvironment()).bind("leaf.shard.enable", Boolean.class).isBound();
        boolean on = isOn(context.getEnvironment());
        if (explicit) {
            return new ConditionOutcome(on, "leaf.shard.enable is " + on);
        }
        return new ConditionOutcome(on, "leaf.shard.enable is unset and leaf.jdbc.url is "
                + (on ? "unset (embedded database)" : "set"));
    }

    /** Whether shard mode is on in this environment. */
    public static boolean isOn(Environment environment) {
        Binder binder = Binder.get(environment);
        return binder.bind("leaf.shard.enable", Boolean.class)
                .orElseGet(() -> binder.bind("leaf.jdbc.url", String.class).map(String::isBlank).orElse(true));
    }
}
