package org.leafid.server.admin;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code leaf.admin.token} is set and not empty. {@code @ConditionalOnProperty}
 * would also match an empty value ({@code LEAF_ADMIN_TOKEN=} in a compose file), which must
 * leave the admin API off, as {@link AdminProperties#enabled()} says.
 */
final class AdminTokenConfigured extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        boolean set = Binder.get(context.getEnvironment()).bind("leaf.admin.token", String.class)
                .map(token -> !token.isEmpty()).orElse(false);
        return set ? ConditionOutcome.match("leaf.admin.token is set")
                : ConditionOutcome.noMatch("leaf.admin.token is not set");
    }
}
