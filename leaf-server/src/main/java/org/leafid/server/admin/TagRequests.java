package org.leafid.server.admin;

import java.math.BigInteger;
import java.util.List;
import java.util.Set;
import org.leafid.server.problem.Keys;
import tools.jackson.databind.JsonNode;

/**
 * Reads admin request bodies field by field from the JSON tree, strictly: unknown fields, wrong
 * types, fractions and out-of-range numbers are refused with the field named, where data
 * binding would coerce ({@code 1.5} to 1, {@code null} to 0) or ignore them.
 */
final class TagRequests {

    static final int MAX_TAG_LENGTH = 128;
    static final int MAX_STEP = 1_000_000_000;
    static final int MAX_DESCRIPTION_LENGTH = 256;
    static final String TAG_RULE = "1 to 128 characters of letters, digits, '.', '_', ':' or '-'";

    private static final List<String> CREATE_FIELDS = List.of("tag", "step", "maxId", "description");
    private static final List<String> STEP_FIELDS = List.of("step");

    /** A tag to create, validated. */
    record NewTag(String tag, int step, long maxId, String description) {}

    private TagRequests() {}

    /** {@code {"tag", "step", "maxId"?, "description"?}}; maxId defaults to 1, as the column does. */
    static NewTag newTag(JsonNode body) {
        requireObject(body, CREATE_FIELDS);
        String tag = tag(body.get("tag"));
        int step = step(body.get("step"));
        long maxId = maxId(body.get("maxId"), step);
        String description = description(body.get("description"));
        return new NewTag(tag, step, maxId, description);
    }

    /** {@code {"step"}}. */
    static int newStep(JsonNode body) {
        requireObject(body, STEP_FIELDS);
        return step(body.get("step"));
    }

    /**
     * The rule of tags in request paths (the web package's {@code Keys}), repeated here because
     * that class is package-private there.
     */
    static boolean isValidTag(String value) {
        return Keys.isValid(value);
    }

    private static void requireObject(JsonNode body, List<String> allowed) {
        requireObject(body, allowed, allowed.size() == 1 ? "{\"step\":1000}" : "{\"tag\":\"order\",\"step\":1000}");
    }

    /** The body is a JSON object with no fields but {@code allowed}; {@code example} shows one. */
    static void requireObject(JsonNode body, List<String> allowed, String example) {
        if (body == null || !body.isObject()) {
            throw new InvalidRequestException(null, "The body must be a JSON object such as " + example);
        }
        Set<String> known = Set.copyOf(allowed);
        for (String name : body.propertyNames()) {
            if (!known.contains(name)) {
                throw new InvalidRequestException(name, "Unknown field '" + name + "'; the fields are "
                        + String.join(", ", allowed));
            }
        }
    }

    private static String tag(JsonNode value) {
        if (value == null || value.isNull()) {
            throw new InvalidRequestException("tag", "Field 'tag' is required: " + TAG_RULE);
        }
        if (!value.isString() || !isValidTag(value.stringValue())) {
            throw new InvalidRequestException("tag", "Field 'tag' must be " + TAG_RULE);
        }
        return value.stringValue();
    }

    private static int step(JsonNode value) {
        String rule = "a whole number from 1 to " + MAX_STEP;
        if (value == null || value.isNull()) {
            throw new InvalidRequestException("step", "Field 'step' is required: " + rule);
        }
        if (!value.isIntegralNumber() || !inRange(value.bigIntegerValue(), 1, MAX_STEP)) {
            throw new InvalidRequestException("step", "Field 'step' must be " + rule);
        }
        return value.intValue();
    }

    /** A number or, for clients that cannot hold 64 bits in a number, a string of digits. */
    private static long maxId(JsonNode value, int step) {
        if (value == null || value.isNull()) {
            return 1;
        }
        long highest = Long.MAX_VALUE - step; // the first block must not pass 2^63 - 1
        String rule = "Field 'maxId' must be a whole number (or a string of digits) from 1 to " + highest
                + " (2^63 - 1 minus the step)";
        BigInteger number;
        if (value.isIntegralNumber()) {
            number = value.bigIntegerValue();
        } else if (value.isString() && isDigits(value.stringValue())) {
            number = new BigInteger(value.stringValue());
        } else {
            throw new InvalidRequestException("maxId", rule);
        }
        if (!inRange(number, 1, highest)) {
            throw new InvalidRequestException("maxId", rule);
        }
        return number.longValueExact();
    }

    private static String description(JsonNode value) {
        return description(value, MAX_DESCRIPTION_LENGTH);
    }

    /** An optional {@code description} of at most {@code maxLength} characters; null when absent. */
    static String description(JsonNode value, int maxLength) {
        if (value == null || value.isNull()) {
            return null;
        }
        // Counted in UTF-16 units, never more than characters: fits the varchar in MySQL and H2.
        if (!value.isString() || value.stringValue().length() > maxLength
                || hasControlCharacters(value.stringValue())) {
            throw new InvalidRequestException("description", "Field 'description' must be a string of at most "
                    + maxLength + " characters, without control characters");
        }
        return value.stringValue();
    }

    /**
     * Whether text holds a NUL, a line break, a tab or another control character: free text the admin
     * API stores ends up on the status page, in JSON answers and in log lines, where such characters
     * break lines or hide what follows them.
     */
    static boolean hasControlCharacters(String text) {
        return text.chars().anyMatch(Character::isISOControl);
    }

    static boolean inRange(BigInteger number, long min, long max) {
        return number.compareTo(BigInteger.valueOf(min)) >= 0 && number.compareTo(BigInteger.valueOf(max)) <= 0;
    }

    static boolean isDigits(String text) {
        // Bounded so a huge string is not turned into a huge BigInteger.
        return !text.isEmpty() && text.length() <= 19 && text.chars().allMatch(c -> c >= '0' && c <= '9');
    }
}
