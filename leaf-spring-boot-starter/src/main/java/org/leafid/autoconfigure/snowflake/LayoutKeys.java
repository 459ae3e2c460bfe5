package org.leafid.autoconfigure.snowflake;

import org.leafid.core.snowflake.SnowflakeLayout;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Reads the layout keys whole. {@code leaf.snowflake.layout} is both a value (the preset, read by
 * {@link LayoutPresetConverter}) and the prefix of {@code .time-bits}, {@code .worker-bits} and
 * {@code .sequence-bits}; when it has a value, Spring's binder converts that value and binds none
 * of the widths under it, which would drop them without a word. So the widths are read here
 * from the environment, key by key, and win as they do under {@code leaf.snowflake.layout.preset}.
 */
final class LayoutKeys {

    private static final String PREFIX = "leaf.snowflake.layout.";

    private LayoutKeys() {}

    static SnowflakeLayout layout(SnowflakeProperties properties, Environment environment) {
        SnowflakeProperties.Layout bound = properties.layout();
        if (bound.timeBits() != null || bound.workerBits() != null || bound.sequenceBits() != null) {
            return properties.snowflakeLayout(); // bound under the prefix: no preset value in the way
        }
        Binder binder = Binder.get(environment);
        return properties.snowflakeLayout(new SnowflakeProperties.Layout(bound.preset(), width(binder, "time-bits"),
                width(binder, "worker-bits"), width(binder, "sequence-bits")));
    }

    private static Integer width(Binder binder, String key) {
        return binder.bind(PREFIX + key, Integer.class).orElse(null);
    }
}
