package org.leafid.server.id;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.leafid.core.format.FormattedIdGenerator;
import org.leafid.core.format.FormattedIds;
import org.leafid.server.problem.Keys;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Conditional;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Numbers people read ({@code leaf.formats.<name>}): the next strings of a format, and a string read
 * back. Ordinary GETs of a string are answered by {@link IdFastPathValve}; this mapping answers the rest.
 */
@RestController
@Conditional(FormatsConfigured.class)
class FormatController {

    private final FormattedIds formats;
    private final IdGetCall<?> getCall;

    FormatController(FormattedIds formats, @Qualifier("formatGetCall") IdGetCall<?> formatGetCall) {
        this.formats = formats;
        this.getCall = formatGetCall;
    }

    @GetMapping("/api/format/get/{name}")
    void get(@PathVariable String name, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        getCall.serve(name, request, response);
    }

    @GetMapping(value = "/api/format/decode/{name}/{value}", produces = MediaType.APPLICATION_JSON_VALUE)
    DecodedFormattedId decode(@PathVariable String name, @PathVariable String value) {
        FormattedIdGenerator format = formats.format(Keys.requireValid("name", name));
        return DecodedFormattedId.of(format, value, format.decode(value));
    }
}
