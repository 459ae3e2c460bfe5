package org.leafid.server.problem;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.springframework.http.HttpStatus;

/**
 * Writes a problem+json answer straight to the servlet response, for the places that run outside
 * Spring MVC's message converters: a filter refusing a request, and the {@code /error} page Tomcat
 * forwards to. Those must not depend on content negotiation, since a broken {@code Accept} header
 * is one of the things they answer.
 */
final class ProblemJson {

    static final String CONTENT_TYPE = "application/problem+json";

    private ProblemJson() {}

    static void write(HttpServletResponse response, ProblemType type, String detail) throws IOException {
        write(response, type.status().value(), type.type(), detail);
    }

    /** @param type the part after {@link ProblemType#PREFIX}: a bare status's ({@link ProblemType#namedAfter}) */
    static void write(HttpServletResponse response, int status, String type, String detail) throws IOException {
        byte[] bytes = body(status, type, detail).getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(CONTENT_TYPE);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /** The problem document: type, title (the status's reason phrase), status, detail. */
    static String body(int status, String type, String detail) {
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? "HTTP " + status : known.getReasonPhrase();
        return "{\"type\":\"" + ProblemType.PREFIX + escape(type) + "\",\"title\":\"" + escape(title)
                + "\",\"status\":" + status + ",\"detail\":\"" + escape(detail) + "\"}";
    }

    /** JSON string escaping; the texts written here are ours, but escaping keeps that from mattering. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
