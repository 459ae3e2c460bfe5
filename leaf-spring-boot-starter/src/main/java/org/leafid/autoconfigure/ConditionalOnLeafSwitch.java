package org.leafid.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/**
 * Matches when a {@code leaf.*} on/off key, bound by Spring's binder exactly as the records bind
 * it ({@code true/on/yes/1} and {@code false/off/no/0}), has the wanted value. A value that is
 * neither stops the start naming the key. {@code @ConditionalOnProperty(havingValue = "true")}
 * compared strings, so {@code enable=yes} was off there and on in the record.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@Conditional(LeafSwitchCondition.class)
public @interface ConditionalOnLeafSwitch {

    /** The key, such as {@code leaf.segment.enable}. */
    String value();

    /** The value that matches. */
    boolean on() default true;

    /** The switch's value when the key is unset: on for the modes, off for the few extras (the API description). */
    boolean whenUnset() default true;
}
