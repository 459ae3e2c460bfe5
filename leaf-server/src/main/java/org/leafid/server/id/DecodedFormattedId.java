package org.leafid.server.id;

import java.util.Map;
import org.leafid.core.format.FormatPattern;
import org.leafid.core.format.FormattedIdGenerator;

/**
 * A string of a format read back: the period whose sequence it is from ("" without a reset), its
 * number (a string: it may pass 2^53), its date parts, and whether its check character is right
 * (null when the format has none; a wrong one is refused before this is made).
 */
record DecodedFormattedId(String name, String value, String pattern, String period, String sequence,
        Map<String, Integer> date, Boolean checkValid) {

    static DecodedFormattedId of(FormattedIdGenerator format, String value, FormatPattern.Decoded decoded) {
        return new DecodedFormattedId(format.name(), value, format.pattern().text(), decoded.period(),
                Long.toString(decoded.sequence()), decoded.date(), decoded.check() == null ? null : Boolean.TRUE);
    }
}
