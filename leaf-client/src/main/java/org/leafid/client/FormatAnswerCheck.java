package org.leafid.client;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.leafid.core.format.FormatPattern;
import org.leafid.core.format.InvalidFormattedIdException;
import org.leafid.core.format.ResetPeriod;

/**
 * What a format's buffer requires of an answer: the pattern in its {@code Leaf-Format} header, the
 * same on every server ({@code pattern}); exactly the strings asked for, one per line
 * ({@code count}); each a string of that pattern, its length, literal text, date, number and check
 * character ({@code format}); none twice, in the answer or in the last answers accepted
 * ({@code repeated}). Judging and recording are one step under one lock.
 */
final class FormatAnswerCheck {

    private static final int LEAST_ANSWERS = 4;
    private static final int MOST_STRINGS = 65_536;

    private final String name;
    private final AtomicReference<String> pinned = new AtomicReference<>();
    private volatile FormatPattern pattern;
    /** Oldest first; guarded by this. */
    private final ArrayDeque<String[]> answers = new ArrayDeque<>();
    private final Set<String> recent = new HashSet<>();

    FormatAnswerCheck(String name) {
        this.name = name;
    }

    /** The pattern the servers answer with, once one answered; null before. */
    FormatPattern pattern() {
        return pattern;
    }

    /**
     * The strings of one 200 answer, checked and recorded.
     *
     * @throws BadAnswerException naming the check that failed
     */
    synchronized String[] accept(String patternHeader, byte[] body, int expected) throws BadAnswerException {
        FormatPattern answered = patternOf(patternHeader);
        String[] values = lines(body, expected);
        Set<String> seen = new HashSet<>();
        for (String value : values) {
            try {
                answered.decode(value, ResetPeriod.NEVER);
            } catch (InvalidFormattedIdException e) {
                throw new BadAnswerException("format", "not a string of " + name + ": " + e.getMessage());
            }
            if (!seen.add(value) || recent.contains(value)) {
                throw new BadAnswerException("repeated", value + " of " + name + " was answered before");
            }
        }
        record(values);
        return values;
    }

    private FormatPattern patternOf(String header) throws BadAnswerException {
        if (header == null) {
            throw new BadAnswerException("pattern", "no Leaf-Format header: not a Leaf server's answer for format " + name);
        }
        String first = pinned.get();
        if (first == null) {
            try {
                pattern = FormatPattern.parse(header);
            } catch (IllegalArgumentException e) {
                throw new BadAnswerException("pattern", "Leaf-Format '" + header + "' " + e.getMessage());
            }
            pinned.compareAndSet(null, header);
            return pattern;
        }
        if (!first.equals(header)) {
            throw new BadAnswerException("pattern", "format " + name + " is '" + header + "' on this server but '"
                    + first + "' on the ones before: two configurations would give two kinds of strings");
        }
        return pattern;
    }

    private static String[] lines(byte[] body, int expected) throws BadAnswerException {
        String text = new String(body, StandardCharsets.US_ASCII);
        if (!text.endsWith("\n")) {
            throw new BadAnswerException(text.isEmpty() ? "count" : "format", "the answer was cut within a line");
        }
        String[] values = text.substring(0, text.length() - 1).split("\n", -1);
        if (values.length != expected) {
            throw new BadAnswerException("count", values.length + " strings where " + expected + " were asked for");
        }
        return values;
    }

    private void record(String[] values) {
        answers.addLast(values);
        for (String value : values) {
            recent.add(value);
        }
        while (answers.size() > LEAST_ANSWERS && recent.size() > MOST_STRINGS) {
            for (String value : answers.removeFirst()) {
                recent.remove(value);
            }
        }
    }
}
