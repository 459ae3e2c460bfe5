package org.leafid.autoconfigure.mode;

import java.util.Arrays;
import java.util.List;
import org.leafid.autoconfigure.LeafSwitchCondition;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** See {@link ConditionalOnWorkerIdMode}. */
public final class WorkerIdModeCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Environment environment = context.getEnvironment();
        if (!LeafSwitchCondition.isOn(environment, "leaf.snowflake.enable")) {
            return ConditionOutcome.noMatch("leaf.snowflake.enable is false");
        }
        List<?> wanted = Arrays.asList((Object[]) metadata
                .getAnnotationAttributes(ConditionalOnWorkerIdMode.class.getName()).get("value"));
        WorkerIdModeChoice choice = choice(environment);
        String reason = "worker-id mode " + choice.mode().key() + " (" + choice.reason() + ")";
        return wanted.contains(choice.mode()) ? ConditionOutcome.match(reason) : ConditionOutcome.noMatch(reason);
    }

    /** The mode in effect, bound as {@link SnowflakeProperties} binds it. */
    public static WorkerIdModeChoice choice(Environment environment) {
        Binder binder = Binder.get(environment);
        return WorkerIdModeChoice.of(binder.bind("leaf.snowflake.mode", WorkerIdMode.class).orElse(null),
                binder.bind("leaf.snowflake.zk.address", String.class).orElse(null));
    }
}
