package org.leafid.server.id;

import org.leafid.autoconfigure.format.FormatsProperties.FormatSettings;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * At least one {@code leaf.formats.<name>} is configured: the formats' endpoints are made only then,
 * as a mode's are only when it is on; without any, {@code /api/format/**} answers that none is.
 */
final class FormatsConfigured implements Condition {

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return Binder.get(context.getEnvironment())
                .bind("leaf.formats", Bindable.mapOf(String.class, FormatSettings.class))
                .map(formats -> !formats.isEmpty()).orElse(false);
    }
}
