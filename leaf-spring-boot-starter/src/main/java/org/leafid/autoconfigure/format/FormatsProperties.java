package org.leafid.autoconfigure.format;

import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.formats.<name>.*}: named formats of numbers people read (docs/formats.md).
 *
 * @param formats the formats by name (docs/formats.md), each with {@code pattern} (required),
 *     {@code source} ({@code segment} or {@code snowflake}), {@code tag}, {@code step}, {@code reset}
 *     ({@code never}, {@code daily}, {@code monthly}, {@code yearly}) and {@code zone} (default UTC)
 */
@ConfigurationProperties("leaf")
public record FormatsProperties(@DefaultValue Map<String, FormatSettings> formats) {

    /**
     * One format, as configured; {@link Formats} checks it.
     *
     * @param pattern literal text and tokens, e.g. {@code ORD{yyyy}{MM}{dd}{seq:6}{check}}
     * @param source where the numbers come from: {@code segment} (default) or {@code snowflake}
     * @param tag the segment tag (default: the format's name); with a reset, {@code <tag>@<period>}
     * @param step the step of the rows made on first use
     * @param reset when the number starts again at 1: {@code never} (default), {@code daily},
     *     {@code monthly}, {@code yearly}
     * @param zone the time zone of the date parts and periods (default UTC)
     */
    public record FormatSettings(
            String pattern,
            @DefaultValue("segment") String source,
            String tag,
            @DefaultValue("1000") int step,
            @DefaultValue("never") String reset,
            @DefaultValue("UTC") String zone) {}
}
