package org.leafid.core.format;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A format's pattern, parsed: literal text and tokens ({@code {yyyy}} {@code {yy}} {@code {MM}}
 * {@code {dd}} {@code {HH}}, one number {@code {seq:N}} / {@code {seq36:N}} / {@code {seq62:N}},
 * and at most one {@code {check}} after the number). Every part has a fixed width, so every string
 * of a format has the same length and is read back by position ({@link #decode}). Literal text is
 * letters, digits, {@code -}, {@code _} and {@code .}: safe in a URL path, a file name, a barcode.
 */
public final class FormatPattern {

    /** A part of the pattern and where it stands in every string. */
    public sealed interface Part permits Literal, Date, Number, Check {
        int at();

        int width();
    }

    public record Literal(int at, String text) implements Part {
        @Override
        public int width() {
            return text.length();
        }
    }

    public record Date(int at, DateField field) implements Part {
        @Override
        public int width() {
            return field.width();
        }
    }

    public record Number(int at, Radix radix, int width) implements Part {}

    public record Check(int at, CheckScheme scheme) implements Part {
        @Override
        public int width() {
            return 1;
        }
    }

    /** The longest value a pattern may make: a line of a batch answer, a path segment. */
    public static final int MAX_LENGTH = 128;

    private final String text;
    private final List<Part> parts;
    private final Number number;
    private final Check check;
    private final Set<DateField> dateFields;
    private final int length;

    private FormatPattern(String text, List<Part> parts) {
        this.text = text;
        this.parts = List.copyOf(parts);
        Number found = null;
        Check checkPart = null;
        EnumSet<DateField> fields = EnumSet.noneOf(DateField.class);
        for (Part part : parts) {
            if (part instanceof Number n) {
                found = n;
            } else if (part instanceof Check c) {
                checkPart = c;
            } else if (part instanceof Date d) {
                fields.add(d.field());
            }
        }
        this.number = found;
        this.check = checkPart;
        this.dateFields = Collections.unmodifiableSet(fields);
        Part last = parts.get(parts.size() - 1);
        this.length = last.at() + last.width();
    }

    /**
     * Parses a pattern.
     *
     * @throws IllegalArgumentException naming what is wrong: an unknown token, no number or two, a
     *     width out of range, a check before the number or twice, a character literal text may not hold
     */
    public static FormatPattern parse(String pattern) {
        return new PatternParser(pattern).parse(FormatPattern::new);
    }

    /** The pattern as configured. */
    public String text() {
        return text;
    }

    public List<Part> parts() {
        return parts;
    }

    /** The number's part. */
    public Number number() {
        return number;
    }

    /** The check's part, or null when the pattern has none. */
    public Check check() {
        return check;
    }

    public Set<DateField> dateFields() {
        return dateFields;
    }

    /** The length of every string of the format. */
    public int length() {
        return length;
    }

    /** The largest number the pattern holds. */
    public long maxNumber() {
        return number.radix().maxValue(number.width());
    }

    /**
     * Reads a string of this format back.
     *
     * @param reset the format's reset: which period the date parts name
     * @throws InvalidFormattedIdException naming what does not match
     */
    public Decoded decode(String value, ResetPeriod reset) {
        if (value.length() != length) {
            throw new InvalidFormattedIdException(value, "has " + value.length() + " characters; every value of "
                    + text + " has " + length);
        }
        Map<String, Integer> date = new LinkedHashMap<>();
        long sequence = -1;
        Character checkCharacter = null;
        for (Part part : parts) {
            if (part instanceof Literal literal) {
                if (!value.regionMatches(literal.at(), literal.text(), 0, literal.width())) {
                    throw new InvalidFormattedIdException(value, "does not have '" + literal.text()
                            + "' at position " + (literal.at() + 1));
                }
            } else if (part instanceof Date d) {
                long read = Radix.DECIMAL.read(value, d.at(), d.width());
                if (read < 0 || !d.field().plausible((int) read)) {
                    throw new InvalidFormattedIdException(value, "has no " + d.field().token() + " at position "
                            + (d.at() + 1) + ": '" + value.substring(d.at(), d.at() + d.width()) + "'");
                }
                date.put(d.field().token(), (int) read);
            } else if (part instanceof Number n) {
                sequence = n.radix().read(value, n.at(), n.width());
                if (sequence < 0) {
                    throw new InvalidFormattedIdException(value, "has no " + n.radix().token() + " number at "
                            + "position " + (n.at() + 1) + ": '" + value.substring(n.at(), n.at() + n.width()) + "'");
                }
            } else if (part instanceof Check c) {
                char found = value.charAt(c.at());
                if (!c.scheme().valid(value, c.at(), found)) {
                    throw new InvalidFormattedIdException(value, "has the wrong check character '" + found
                            + "' at position " + (c.at() + 1) + ": a character was mistyped");
                }
                checkCharacter = found;
            }
        }
        String period = reset == ResetPeriod.NEVER ? "" : reset.key(date.getOrDefault("yyyy", 0),
                date.getOrDefault("MM", 1), date.getOrDefault("dd", 1));
        return new Decoded(period, sequence, date, checkCharacter);
    }

    @Override
    public String toString() {
        return text;
    }

    /**
     * A string read back: the period whose sequence its number is from ("" without a reset), the
     * number, the date parts by token, and its check character (null when the format has none).
     */
    public record Decoded(String period, long sequence, Map<String, Integer> date, Character check) {}

    /** Builds the parts of a pattern text; one per parse. */
    private static final class PatternParser {

        private final String pattern;
        private final List<Part> parts = new ArrayList<>();
        private int at;

        PatternParser(String pattern) {
            this.pattern = pattern;
        }

        FormatPattern parse(java.util.function.BiFunction<String, List<Part>, FormatPattern> make) {
            if (pattern == null || pattern.isEmpty()) {
                throw new IllegalArgumentException("is empty: give literal text and tokens, e.g. ORD{yyyy}{MM}{dd}{seq:6}");
            }
            StringBuilder literal = new StringBuilder();
            for (int i = 0; i < pattern.length(); i++) {
                char c = pattern.charAt(i);
                if (c == '{') {
                    int end = pattern.indexOf('}', i);
                    if (end < 0) {
                        throw new IllegalArgumentException("has a '{' at position " + (i + 1) + " without its '}'");
                    }
                    flush(literal);
                    token(pattern.substring(i + 1, end), i + 1);
                    i = end;
                } else if (Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_' || c == '.') {
                    literal.append(c);
                } else {
                    throw new IllegalArgumentException("has '" + c + "' at position " + (i + 1) + ": literal text is "
                            + "letters, digits, '-', '_' and '.'");
                }
            }
            flush(literal);
            if (at > MAX_LENGTH) {
                throw new IllegalArgumentException("makes values of " + at + " characters; at most " + MAX_LENGTH);
            }
            if (parts.stream().noneMatch(Number.class::isInstance)) {
                throw new IllegalArgumentException("has no number: add {seq:N}, {seq36:N} or {seq62:N}");
            }
            return make.apply(pattern, parts);
        }

        private void flush(StringBuilder literal) {
            if (!literal.isEmpty()) {
                add(new Literal(at, literal.toString()));
                literal.setLength(0);
            }
        }

        private void token(String token, int position) {
            DateField field = DateField.ofToken(token);
            if (field != null) {
                add(new Date(at, field));
            } else if (token.equals("check")) {
                Number number = (Number) parts.stream().filter(Number.class::isInstance).findFirst().orElseThrow(() ->
                        new IllegalArgumentException("has {check} at position " + position + " before the number it"
                                + " protects: put it after {seq…}"));
                if (parts.stream().anyMatch(Check.class::isInstance)) {
                    throw new IllegalArgumentException("has {check} twice");
                }
                add(new Check(at, number.radix() == Radix.DECIMAL ? CheckScheme.LUHN_MOD_10 : CheckScheme.LUHN_MOD_36));
            } else {
                add(number(token, position));
            }
        }

        private Number number(String token, int position) {
            int colon = token.indexOf(':');
            String name = colon < 0 ? token : token.substring(0, colon);
            Radix radix = null;
            for (Radix candidate : Radix.values()) {
                if (candidate.token().equals(name)) {
                    radix = candidate;
                }
            }
            if (radix == null) {
                throw new IllegalArgumentException("has the unknown token {" + token + "} at position " + position
                        + ": the tokens are {yyyy} {yy} {MM} {dd} {HH} {seq:N} {seq36:N} {seq62:N} {check}");
            }
            if (parts.stream().anyMatch(Number.class::isInstance)) {
                throw new IllegalArgumentException("has a second number {" + token + "}: a format has one");
            }
            int width;
            try {
                width = colon < 0 ? -1 : Integer.parseInt(token.substring(colon + 1));
            } catch (NumberFormatException e) {
                width = -1;
            }
            if (width < 1 || width > radix.maxWidth()) {
                throw new IllegalArgumentException("has {" + token + "}: the number needs a width, {" + name + ":N} with"
                        + " N from 1 to " + radix.maxWidth() + ", so every value has the same length");
            }
            return new Number(at, radix, width);
        }

        private void add(Part part) {
            parts.add(part);
            at += part.width();
        }
    }
}
