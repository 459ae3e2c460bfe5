package org.leafid.server.id;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.leafid.core.segment.IdRanges;
import org.leafid.server.problem.AcceptHeaderFilter;
import org.leafid.server.problem.InvalidCountException;
import org.springframework.http.MediaType;

/**
 * The answers of the get endpoints: one ID as plain text (Leaf's format), or a batch as one ID
 * per line, or as a JSON array of strings (IDs pass 2^53, which JSON numbers cannot carry), or, for
 * a segment or shard batch asked for as {@value #RANGES_TYPE}, as runs of IDs:
 * {@code {"count":N,"ranges":[["first","last"],...]}}, whatever N is a few dozen bytes.
 *
 * <p>Written straight to the servlet response: the body is a few ASCII digits whose type is
 * known, and going through Spring's message converters and content negotiation cost about a
 * tenth of a single-ID call (see docs/benchmark-history.md). A failure before writing still reaches the
 * problem handlers, since nothing has been written then.
 */
final class IdAnswers {

    private static final String TEXT = "text/plain;charset=UTF-8";
    private static final String JSON = "application/json";
    /** The media type of a batch as ranges; a caller that does not name it gets one ID per line. */
    static final String RANGES_TYPE = "application/vnd.leaf.ranges+json";
    private static final MediaType RANGES_MEDIA_TYPE = MediaType.parseMediaType(RANGES_TYPE);

    /** How a batch is written. */
    enum Form {
        TEXT, JSON, RANGES
    }

    private IdAnswers() {}

    static void single(HttpServletResponse response, long id) throws IOException {
        write(response, TEXT, Long.toString(id));
    }

    static void batch(HttpServletResponse response, long[] ids, boolean json) throws IOException {
        StringBuilder body = new StringBuilder(ids.length * 21 + 2);
        if (json) {
            body.append('[');
            for (int i = 0; i < ids.length; i++) {
                body.append(i == 0 ? "\"" : ",\"").append(ids[i]).append('"');
            }
            write(response, JSON, body.append(']').toString());
            return;
        }
        for (long id : ids) {
            body.append(id).append('\n');
        }
        write(response, TEXT, body.toString());
    }

    /**
     * Whether the runs are worth writing: at least four IDs a run on average. Otherwise (IDs of
     * several shards, a list from Redis) the runs would be longer than one ID per line, which is
     * written instead; so an answer as ranges is never longer than the lines it stands for, the
     * bound a client reads an answer within.
     */
    static boolean shorterAsRanges(IdRanges ranges) {
        return (long) ranges.ranges() * 4 <= ranges.count();
    }

    /**
     * A batch as runs: {@code {"count":N,"ranges":[["first","last"],...]}}, in the order issued, with
     * {@code "stride":"S"} after the count when the IDs of a run step by more than 1 (shard mode).
     */
    static void ranges(HttpServletResponse response, IdRanges ranges) throws IOException {
        StringBuilder body = new StringBuilder(48 + ranges.ranges() * 44).append("{\"count\":").append(ranges.count());
        if (ranges.stride() != 1) {
            body.append(",\"stride\":\"").append(ranges.stride()).append('"');
        }
        body.append(",\"ranges\":[");
        for (int i = 0; i < ranges.ranges(); i++) {
            body.append(i == 0 ? "[\"" : ",[\"").append(ranges.first(i)).append("\",\"").append(ranges.last(i))
                    .append("\"]");
        }
        write(response, RANGES_TYPE, body.append("]}").toString());
    }

    /** A string of a format: its characters are letters, digits, '-', '_' and '.', nothing to escape. */
    static void single(HttpServletResponse response, String value) throws IOException {
        write(response, TEXT, value);
    }

    static void batch(HttpServletResponse response, String[] values, boolean json) throws IOException {
        StringBuilder body = new StringBuilder(values.length * (values[0].length() + 3) + 2);
        if (json) {
            body.append('[');
            for (int i = 0; i < values.length; i++) {
                body.append(i == 0 ? "\"" : ",\"").append(values[i]).append('"');
            }
            write(response, JSON, body.append(']').toString());
            return;
        }
        for (String value : values) {
            body.append(value).append('\n');
        }
        write(response, TEXT, body.toString());
    }

    private static void write(HttpServletResponse response, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(contentType);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /** The largest {@code count} of one form of answer, and the key that sets it (named in a refusal). */
    record CountLimit(int most, String key) {

        /** {@code leaf.max-batch}: the limit of the answers written out ID by ID, and of shard ranges. */
        static CountLimit maxBatch(int most) {
            return new CountLimit(most, "leaf.max-batch");
        }
    }

    /**
     * {@code count} as given; absent means the single-ID answer. Given twice
     * ({@code ?count=1&count=2}) is refused rather than one of them picked.
     */
    static int parseCount(String[] counts, CountLimit limit) {
        if (counts.length != 1) {
            throw new InvalidCountException(String.join(",", counts), limit.most(), limit.key());
        }
        String count = counts[0];
        int value;
        try {
            value = Integer.parseInt(count.trim());
        } catch (NumberFormatException e) {
            throw new InvalidCountException(count, limit.most(), limit.key());
        }
        if (value < 1 || value > limit.most()) {
            throw new InvalidCountException(count, limit.most(), limit.key());
        }
        return value;
    }

    /**
     * Whether the {@code Accept} header asks for JSON (a wildcard does not). A malformed header
     * never gets here: {@link AcceptHeaderFilter} refuses it.
     */
    /**
     * The form a batch is written in: ranges when the mode can give them and the caller names
     * {@value #RANGES_TYPE} at a quality no other type it names beats; else as {@link #wantsJson}.
     */
    static Form form(String accept, boolean rangesOffered) {
        if (rangesOffered && accept != null && accept.indexOf("vnd.leaf.ranges", 0) >= 0) {
            double ranges = 0;
            double others = 0;
            for (MediaType type : MediaType.parseMediaTypes(accept)) {
                if (type.equalsTypeAndSubtype(RANGES_MEDIA_TYPE)) {
                    ranges = Math.max(ranges, type.getQualityValue());
                } else {
                    others = Math.max(others, type.getQualityValue());
                }
            }
            if (ranges > 0 && ranges >= others) {
                return Form.RANGES;
            }
        }
        return wantsJson(accept) ? Form.JSON : Form.TEXT;
    }

    static boolean wantsJson(String accept) {
        if (accept == null) {
            return false;
        }
        for (MediaType type : MediaType.parseMediaTypes(accept)) {
            if (type.isCompatibleWith(MediaType.APPLICATION_JSON) && !type.isWildcardType()) {
                return true;
            }
        }
        return false;
    }
}
