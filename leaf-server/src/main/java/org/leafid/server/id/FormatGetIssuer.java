package org.leafid.server.id;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.leafid.core.format.FormattedIdGenerator;
import org.leafid.core.format.FormattedIds;
import org.leafid.server.problem.Keys;

/**
 * The formats' get: the path names the format; every answer carries its pattern in the header
 * {@value #PATTERN_HEADER}, which the client checks each string against.
 */
final class FormatGetIssuer implements IdGetCall.TextIssuer<FormattedIdGenerator> {

    static final String PATTERN_HEADER = "Leaf-Format";

    private final FormattedIds formats;

    FormatGetIssuer(FormattedIds formats) {
        this.formats = formats;
    }

    @Override
    public FormattedIdGenerator key(String given, HttpServletRequest request) {
        return formats.format(Keys.requireValid("name", given));
    }

    @Override
    public String next(FormattedIdGenerator format) {
        return format.next();
    }

    @Override
    public String[] next(FormattedIdGenerator format, int count) {
        return format.next(count);
    }

    @Override
    public void describe(FormattedIdGenerator format, HttpServletResponse response) {
        response.setHeader(PATTERN_HEADER, format.pattern().text());
    }
}
