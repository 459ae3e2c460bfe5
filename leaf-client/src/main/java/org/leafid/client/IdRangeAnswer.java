package org.leafid.client;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.leafid.core.segment.IdRanges;

/**
 * Parses a batch answered as ranges ({@value #MEDIA_TYPE}): {@code {"count":N,"ranges":[["first","last"],...]}},
 * with {@code "stride":"S"} after the count when a run's IDs step by S (shard mode), exactly that shape
 * (whitespace between tokens allowed), straight from the bytes: runs each above the one before kept
 * as runs, other runs written out as the IDs they stand for. Refused
 * whole, before any ID of it is handed out: anything else than that shape, or a run that is not whole
 * steps ({@code format}); a count other than the one asked for, or runs that do not add up to it
 * ({@code count}); a run that ends before it starts, or in an ordered mode does not start above the
 * run before it ({@code increasing}). What the IDs must be beyond that (above what was served, not shared with
 * another answer) is the buffer's {@link AnswerCheck}, as for an answer of one ID per line.
 */
final class IdRangeAnswer {

    static final String MEDIA_TYPE = "application/vnd.leaf.ranges+json";

    private final byte[] body;
    private final int expected;
    private final boolean ordered;
    private int at;

    private IdRangeAnswer(byte[] body, int expected, boolean ordered) {
        this.body = body;
        this.expected = expected;
        this.ordered = ordered;
    }

    /** Whether a {@code Content-Type} is the ranges' (parameters aside, any case). */
    static boolean isRanges(String contentType) {
        if (contentType == null) {
            return false;
        }
        int end = contentType.indexOf(';');
        return (end < 0 ? contentType : contentType.substring(0, end)).trim().equalsIgnoreCase(MEDIA_TYPE);
    }

    /** The answer's IDs, in order (runs as their bounds, with no array), and how many runs they came in. */
    record Parsed(AnswerIds ids, int ranges) {}

    /**
     * @param ordered whether each run must start above the run before (segment); shard runs are of
     *     several shards, in no order of their own
     */
    static Parsed parse(byte[] body, int expected, boolean ordered) throws BadAnswerException {
        return new IdRangeAnswer(body, expected, ordered).parse();
    }

    private Parsed parse() throws BadAnswerException {
        expect('{');
        name("count");
        expect(':');
        long count = number();
        if (count != expected) {
            throw new BadAnswerException("count", "an answer of " + count + " IDs to a request for " + expected);
        }
        expect(',');
        long stride = 1;
        if (nextName().equals("stride")) {
            name("stride");
            expect(':');
            stride = quotedNumber();
            if (stride < 1) {
                throw new BadAnswerException("format", "a stride of " + stride + ": runs step by 1 or more");
            }
            expect(',');
        }
        name("ranges");
        expect(':');
        expect('[');
        long[] bounds = new long[4]; // first and last of each run
        long filled = 0;
        int ranges = 0;
        if (peek() != ']') {
            while (true) {
                expect('[');
                long first = quotedNumber();
                expect(',');
                long last = quotedNumber();
                expect(']');
                if (last < first) {
                    throw new BadAnswerException("increasing", "run " + (ranges + 1) + " ends at " + last
                            + " before it starts at " + first);
                }
                if (ordered && ranges > 0 && first <= bounds[2 * ranges - 1]) {
                    throw new BadAnswerException("increasing", "run " + (ranges + 1) + " starts at " + first
                            + ", not above " + bounds[2 * ranges - 1] + " where the run before ends");
                }
                if ((last - first) % stride != 0) {
                    throw new BadAnswerException("format", "run " + (ranges + 1) + " from " + first + " to " + last
                            + " is not a whole number of steps of " + stride);
                }
                if ((last - first) / stride >= expected - filled) {
                    throw new BadAnswerException("count", "the runs hold more than the " + expected + " IDs asked for");
                }
                if (2 * ranges == bounds.length) {
                    bounds = Arrays.copyOf(bounds, bounds.length * 2);
                }
                bounds[2 * ranges] = first;
                bounds[2 * ranges + 1] = last;
                filled += (last - first) / stride + 1;
                ranges++;
                if (peek() == ',') {
                    at++;
                    continue;
                }
                break;
            }
        }
        expect(']');
        expect('}');
        skipSpace();
        if (at != body.length) {
            throw new BadAnswerException("format", "bytes after the answer, at byte " + at);
        }
        if (filled != expected) {
            throw new BadAnswerException("count", "the runs hold " + filled + " IDs of the " + expected + " asked for");
        }
        // Runs each above the one before are kept as runs; runs with a stride or in no order (shard) written out.
        return new Parsed(stride == 1 && (ordered || ranges == 1) ? AnswerIds.runs(bounds, ranges)
                : AnswerIds.of(IdRanges.ofRuns(bounds, ranges, stride).toArray()), ranges);
    }

    /** The name of the next member, without reading past it: "" when there is none. */
    private String nextName() {
        skipSpace();
        if (at >= body.length || body[at] != '"') {
            return "";
        }
        int end = at + 1;
        while (end < body.length && body[end] != '"' && end - at < 16) {
            end++;
        }
        return new String(body, at + 1, end - at - 1, StandardCharsets.US_ASCII);
    }

    private void name(String name) throws BadAnswerException {
        expect('"');
        for (int i = 0; i < name.length(); i++) {
            if (at >= body.length || body[at] != name.charAt(i)) {
                throw unexpected("the name \"" + name + "\"");
            }
            at++;
        }
        if (at >= body.length || body[at] != '"') {
            throw unexpected("the name \"" + name + "\"");
        }
        at++;
    }

    private long quotedNumber() throws BadAnswerException {
        expect('"');
        long value = digits();
        if (at >= body.length || body[at] != '"') {
            throw unexpected("'\"' after an ID");
        }
        at++;
        return value;
    }

    private long number() throws BadAnswerException {
        skipSpace();
        return digits();
    }

    /** A non-negative decimal of 1 to 19 digits, at most 2^63-1. */
    private long digits() throws BadAnswerException {
        long value = 0;
        int start = at;
        while (at < body.length && body[at] >= '0' && body[at] <= '9') {
            int digit = body[at] - '0';
            if (value > (Long.MAX_VALUE - digit) / 10) {
                throw new BadAnswerException("format", "a number above 2^63-1 at byte " + start);
            }
            value = value * 10 + digit;
            at++;
        }
        if (at == start) {
            throw unexpected("a number");
        }
        return value;
    }

    private void expect(char c) throws BadAnswerException {
        skipSpace();
        if (at >= body.length || body[at] != c) {
            throw unexpected("'" + c + "'");
        }
        at++;
    }

    private int peek() {
        skipSpace();
        return at < body.length ? body[at] : -1;
    }

    private void skipSpace() {
        while (at < body.length && (body[at] == ' ' || body[at] == '\n' || body[at] == '\r' || body[at] == '\t')) {
            at++;
        }
    }

    private BadAnswerException unexpected(String wanted) {
        String found = at >= body.length ? "the end of the answer" : "byte " + (body[at] & 0xff);
        return new BadAnswerException("format", "expected " + wanted + " at byte " + at + " of the ranges answer, found "
                + found);
    }
}
