package org.leafid.autoconfigure.shard;

import java.util.Locale;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** See {@link ConditionalOnShardBuffer}: {@code memory}, {@code MEMORY} and {@code Memory} are one value. */
public final class ShardBufferCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        ShardProperties.Buffer wanted = (ShardProperties.Buffer) metadata
                .getAnnotationAttributes(ConditionalOnShardBuffer.class.getName()).get("value");
        ShardProperties.Buffer buffer = buffer(context.getEnvironment());
        String reason = "leaf.shard.buffer is " + buffer.name().toLowerCase(Locale.ROOT);
        return buffer == wanted ? ConditionOutcome.match(reason) : ConditionOutcome.noMatch(reason);
    }

    /**
     * {@code leaf.shard.buffer} as {@link ShardProperties} reads it; unset is memory. A value that is
     * no buffer throws a BindException.
     */
    public static ShardProperties.Buffer buffer(Environment environment) {
        return Binder.get(environment).bind("leaf.shard.buffer", ShardProperties.Buffer.class)
                .orElse(ShardProperties.Buffer.MEMORY);
    }
}
