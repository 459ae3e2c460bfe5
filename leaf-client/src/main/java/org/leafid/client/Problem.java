package org.leafid.client;

import java.nio.charset.StandardCharsets;

/**
 * The two fields of a problem+json answer the client uses, read without a JSON library: the body
 * is a flat object written by the server's problem handler, and anything else (an HTML page of a
 * proxy, an empty body) gives {@code about:blank} and the start of the body as the detail.
 */
record Problem(String type, String detail) {

    static final String TYPE_PREFIX = "urn:leaf:problem:";
    private static final int DETAIL_WITHOUT_JSON = 200;

    static Problem parse(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        String type = stringField(text, "type");
        String detail = stringField(text, "detail");
        if (detail == null) {
            detail = text.length() > DETAIL_WITHOUT_JSON ? text.substring(0, DETAIL_WITHOUT_JSON) + "…" : text;
        }
        return new Problem(type == null ? "about:blank" : type, detail);
    }

    /** {@code unknown-tag} for {@code urn:leaf:problem:unknown-tag}; other types as they are. */
    static String shortType(String type) {
        return type.startsWith(TYPE_PREFIX) ? type.substring(TYPE_PREFIX.length()) : type;
    }

    /** The value of {@code "name": "..."} at the top of a flat JSON object, unescaped; null if absent. */
    static String stringField(String json, String name) {
        String key = "\"" + name + "\"";
        int at = json.indexOf(key);
        while (at >= 0) {
            int i = skipSpaces(json, at + key.length());
            if (i < json.length() && json.charAt(i) == ':') {
                i = skipSpaces(json, i + 1);
                return i < json.length() && json.charAt(i) == '"' ? unescape(json, i + 1) : null;
            }
            at = json.indexOf(key, at + 1);
        }
        return null;
    }

    private static int skipSpaces(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static String unescape(String s, int from) {
        StringBuilder out = new StringBuilder();
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\' || i + 1 >= s.length()) {
                out.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (i + 4 < s.length()) {
                        out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                        i += 4;
                    }
                }
                default -> out.append(e); // \" \\ \/
            }
        }
        return out.toString(); // cut: what there is
    }
}
