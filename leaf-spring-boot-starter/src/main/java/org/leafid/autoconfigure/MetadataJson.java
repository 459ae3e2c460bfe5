package org.leafid.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the configuration metadata's JSON (RFC 8259) into maps, lists, strings, numbers (as
 * {@code Long} or {@code Double}), booleans and {@code null}. Its own reader rather than Jackson:
 * the metadata is read while the environment is prepared, before anything else needs JSON, and
 * bootstrapping Jackson's object mapper for two small files cost every start of the server about
 * 0.18 s of its main thread. {@code MetadataJsonTest} holds it to Jackson's reading of every
 * metadata file on the class path.
 */
final class MetadataJson {

    private final String text;
    private int at;

    private MetadataJson(String text) {
        this.text = text;
    }

    /** The document, whose top level must be an object. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parseObject(String text) {
        MetadataJson reader = new MetadataJson(text);
        Object value = reader.value();
        reader.skipSpace();
        if (!(value instanceof Map) || reader.at != text.length()) {
            throw reader.error("a single JSON object");
        }
        return (Map<String, Object>) value;
    }

    private Object value() {
        skipSpace();
        if (at >= text.length()) {
            throw error("a value");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> object = new LinkedHashMap<>();
        at++;
        skipSpace();
        if (peek() == '}') {
            at++;
            return object;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("a member name");
            }
            String name = string();
            skipSpace();
            expect(':');
            object.put(name, value());
            skipSpace();
            if (peek() == ',') {
                at++;
            } else {
                expect('}');
                return object;
            }
        }
    }

    private List<Object> array() {
        List<Object> array = new ArrayList<>();
        at++;
        skipSpace();
        if (peek() == ']') {
            at++;
            return array;
        }
        while (true) {
            array.add(value());
            skipSpace();
            if (peek() == ',') {
                at++;
            } else {
                expect(']');
                return array;
            }
        }
    }

    private String string() {
        at++; // the opening quote
        StringBuilder out = new StringBuilder();
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) {
                break;
            }
            char escaped = text.charAt(at++);
            switch (escaped) {
                case '"', '\\', '/' -> out.append(escaped);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("four hex digits");
                    }
                    out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> throw error("an escape");
            }
        }
        throw error("the end of a string");
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error(word);
        }
        at += word.length();
        return value;
    }

    private Number number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        String digits = text.substring(start, at);
        if (digits.isEmpty()) {
            throw error("a value");
        }
        try {
            return digits.contains(".") || digits.contains("e") || digits.contains("E")
                    ? (Number) Double.valueOf(digits) : (Number) Long.valueOf(digits);
        } catch (NumberFormatException e) {
            throw error("a number");
        }
    }

    private void skipSpace() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("'" + c + "'");
        }
        at++;
    }

    private IllegalArgumentException error(String expected) {
        return new IllegalArgumentException("Configuration metadata is not valid JSON: expected " + expected
                + " at character " + at);
    }
}
