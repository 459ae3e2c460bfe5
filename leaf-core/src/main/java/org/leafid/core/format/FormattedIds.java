package org.leafid.core.format;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/** The configured formats by name: what the HTTP endpoints and an embedding application call. */
public final class FormattedIds {

    private final Map<String, FormattedIdGenerator> formats;

    public FormattedIds(Collection<FormattedIdGenerator> formats) {
        Map<String, FormattedIdGenerator> byName = new TreeMap<>();
        for (FormattedIdGenerator format : formats) {
            if (byName.put(format.name(), format) != null) {
                throw new IllegalArgumentException("two formats are named '" + format.name() + "'");
            }
        }
        this.formats = Map.copyOf(byName);
    }

    /**
     * The format of that name.
     *
     * @throws UnknownFormatException when none is configured
     */
    public FormattedIdGenerator format(String name) {
        FormattedIdGenerator format = formats.get(name);
        if (format == null) {
            throw new UnknownFormatException(name);
        }
        return format;
    }

    /** The next string of a format. */
    public String next(String name) {
        return format(name).next();
    }

    /** The next {@code count} strings of a format. */
    public String[] next(String name, int count) {
        return format(name).next(count);
    }

    /** Reads a string of a format back; see {@link FormatPattern#decode}. */
    public FormatPattern.Decoded decode(String name, String value) {
        return format(name).decode(value);
    }

    /** Every format, by name. */
    public Map<String, FormattedIdGenerator> all() {
        return new TreeMap<>(formats);
    }
}
