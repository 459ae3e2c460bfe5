package org.leafid.autoconfigure.mode;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.springframework.context.annotation.Conditional;

/**
 * Matches when snowflake mode is on ({@code leaf.snowflake.enable}, as
 * {@link org.leafid.autoconfigure.ConditionalOnLeafSwitch} reads it) and the worker-id mode in effect is one of these. The
 * mode is bound by Spring's binder, as in {@link SnowflakeProperties} ({@code zk-normal},
 * {@code ZK_NORMAL}… all work), with the default of {@link WorkerIdModeChoice}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@Conditional(WorkerIdModeCondition.class)
public @interface ConditionalOnWorkerIdMode {

    WorkerIdMode[] value();
}
