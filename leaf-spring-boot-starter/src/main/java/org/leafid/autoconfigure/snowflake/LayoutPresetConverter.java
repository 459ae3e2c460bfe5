package org.leafid.autoconfigure.snowflake;

import org.springframework.core.convert.converter.Converter;

/**
 * Reads {@code leaf.snowflake.layout=uid-generator}: the key is also the prefix of the widths
 * ({@code leaf.snowflake.layout.time-bits}), so a value of its own is the preset. A class, not a
 * lambda, so that the binder can see what it converts.
 */
public final class LayoutPresetConverter implements Converter<String, SnowflakeProperties.Layout> {

    @Override
    public SnowflakeProperties.Layout convert(String preset) {
        return new SnowflakeProperties.Layout(preset, null, null, null);
    }
}
