package org.leafid.autoconfigure.mode;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/**
 * Matches when shard mode is on: {@code leaf.shard.enable}, or unset and Leaf's embedded database
 * in use ({@link ShardModeCondition}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@Conditional(ShardModeCondition.class)
public @interface ConditionalOnShardMode {}
