package org.leafid.autoconfigure;

import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** See {@link ConditionalOnLeafSwitch}. */
public final class LeafSwitchCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Map<String, Object> attributes = metadata.getAnnotationAttributes(ConditionalOnLeafSwitch.class.getName());
        String key = (String) attributes.get("value");
        boolean wanted = (Boolean) attributes.get("on");
        boolean value = isOn(context.getEnvironment(), key, (Boolean) attributes.get("whenUnset"));
        return value == wanted
                ? ConditionOutcome.match(key + " is " + value)
                : ConditionOutcome.noMatch(key + " is " + value);
    }

    /** The switch as the records read it; unset is on. A value that does not convert throws a BindException. */
    public static boolean isOn(Environment environment, String key) {
        return isOn(environment, key, true);
    }

    /** The switch as the records read it, {@code whenUnset} if it is not set. */
    public static boolean isOn(Environment environment, String key, boolean whenUnset) {
        return Binder.get(environment).bind(key, Boolean.class).orElse(whenUnset);
    }
}
