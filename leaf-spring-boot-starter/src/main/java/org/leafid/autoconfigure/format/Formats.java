package org.leafid.autoconfigure.format;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Locale;
import java.util.regex.Pattern;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.LeafValues;
import org.leafid.autoconfigure.format.FormatsProperties.FormatSettings;
import org.leafid.core.format.DateField;
import org.leafid.core.format.FormatPattern;
import org.leafid.core.format.ResetPeriod;

/**
 * A format's settings checked, each refusal naming its key in one line: a pattern that does not
 * parse, a reset without the date parts that tell its periods apart, a snowflake format that
 * resets or whose number cannot hold every ID.
 */
record Formats(String name, FormatPattern pattern, Source source, String tag, int step, ResetPeriod reset,
        ZoneId zone) {

    /** Where a format's numbers come from. */
    enum Source { SEGMENT, SNOWFLAKE }

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

    static Formats check(String name, FormatSettings settings) {
        String prefix = "leaf.formats." + name + ".";
        LeafValues.requireMatch("leaf.formats", name, NAME, "format names of 1 to 64 letters, digits, '.', '_', '-'");
        if (settings.pattern() == null || settings.pattern().isBlank()) {
            throw new LeafConfigurationException(prefix + "pattern", "is not set", "Give the format a pattern, "
                    + "e.g. ORD{yyyy}{MM}{dd}{seq:6}{check} (docs/formats.md).");
        }
        FormatPattern pattern;
        try {
            pattern = FormatPattern.parse(settings.pattern());
        } catch (IllegalArgumentException e) {
            throw new LeafConfigurationException(prefix + "pattern", "'" + settings.pattern() + "' " + e.getMessage(),
                    "See the tokens in docs/formats.md.");
        }
        Source source = parse(prefix + "source", settings.source(), Source.class, "segment, snowflake");
        ResetPeriod reset = parse(prefix + "reset", settings.reset(), ResetPeriod.class, "never, daily, monthly, yearly");
        ZoneId zone;
        try {
            zone = ZoneId.of(settings.zone());
        } catch (DateTimeException e) {
            throw new LeafConfigurationException(prefix + "zone", "'" + settings.zone() + "' is not a time zone",
                    "Use a region such as Asia/Shanghai or Europe/Berlin, or UTC.");
        }
        if (!pattern.dateFields().containsAll(reset.needs())) {
            throw new LeafConfigurationException(prefix + "reset", "is " + settings.reset() + " but the pattern '"
                    + settings.pattern() + "' lacks " + missing(reset, pattern), "Add them, so that the periods' values differ; "
                    + "{yy} is not enough, since a century repeats it.");
        }
        String tag = settings.tag() == null ? name : settings.tag();
        LeafValues.requireMatch(prefix + "tag", tag, TAG, "1 to 100 letters, digits, '.', '_', ':', '-'");
        LeafValues.requireBetween(prefix + "step", settings.step(), 1, Integer.MAX_VALUE);
        if (source == Source.SNOWFLAKE) {
            if (reset != ResetPeriod.NEVER) {
                throw new LeafConfigurationException(prefix + "reset", "is " + settings.reset() + " for a snowflake "
                        + "format", "A snowflake ID never starts again; use source=segment to reset.");
            }
            if (pattern.maxNumber() != Long.MAX_VALUE) {
                throw new LeafConfigurationException(prefix + "pattern", "'" + settings.pattern() + "' holds numbers "
                        + "up to " + pattern.maxNumber() + ", fewer than a snowflake ID has", "Use {seq:19}, "
                        + "{seq36:13} or {seq62:11}.");
            }
        }
        return new Formats(name, pattern, source, tag, settings.step(), reset, zone);
    }

    private static String missing(ResetPeriod reset, FormatPattern pattern) {
        StringBuilder text = new StringBuilder();
        for (DateField field : DateField.values()) {
            if (reset.needs().contains(field) && !pattern.dateFields().contains(field)) {
                text.append('{').append(field.token()).append('}');
            }
        }
        return text.toString();
    }

    private static <E extends Enum<E>> E parse(String key, String value, Class<E> type, String accepted) {
        try {
            return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new LeafConfigurationException(key, "is '" + value + "'", "Use one of: " + accepted + ".");
        }
    }
}
