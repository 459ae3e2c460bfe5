package org.leafid.autoconfigure.shard;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.leafid.autoconfigure.mode.ConditionalOnShardMode;
import org.springframework.context.annotation.Conditional;

/** Matches when shard mode is on and {@code leaf.shard.buffer} is the given one (bound as the record binds it). */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@ConditionalOnShardMode
@Conditional(ShardBufferCondition.class)
public @interface ConditionalOnShardBuffer {

    ShardProperties.Buffer value();
}
