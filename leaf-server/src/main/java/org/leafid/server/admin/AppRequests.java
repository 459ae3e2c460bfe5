package org.leafid.server.admin;

import java.math.BigInteger;
import java.util.List;
import org.leafid.core.shard.ShardId;
import org.leafid.core.shard.ShardLimit;
import tools.jackson.databind.JsonNode;

/**
 * Reads the body of {@code POST /api/admin/apps} strictly, field by field, as {@link TagRequests}
 * reads tag bodies: {@code {"appId", "appName", "step"?, "maxLimitId"?, "description"?}}.
 */
final class AppRequests {

    static final int MAX_APP_NAME_LENGTH = 128;
    static final int MAX_DESCRIPTION_LENGTH = 255;
    /** id_alloc's column default. */
    static final int DEFAULT_STEP = 1000;

    private static final List<String> FIELDS = List.of("appId", "appName", "step", "maxLimitId", "description");
    private static final String EXAMPLE = "{\"appId\":7,\"appName\":\"orders\",\"step\":1000,\"maxLimitId\":4294967296}";

    /** An app to create, validated. */
    record NewApp(int appId, String appName, int step, long maxLimitId, String description) {}

    private AppRequests() {}

    static NewApp newApp(JsonNode body) {
        TagRequests.requireObject(body, FIELDS, EXAMPLE);
        int appId = appId(body.get("appId"));
        String appName = appName(body.get("appName"));
        int step = step(body.get("step"));
        long maxLimitId = maxLimitId(body.get("maxLimitId"), appId);
        String description = TagRequests.description(body.get("description"), MAX_DESCRIPTION_LENGTH);
        return new NewApp(appId, appName, step, maxLimitId, description);
    }

    private static int appId(JsonNode value) {
        String rule = "a whole number from 0 to " + ShardId.MAX_APP_ID + " (8 bits of every ID)";
        if (value == null || value.isNull()) {
            throw new InvalidRequestException("appId", "Field 'appId' is required: " + rule);
        }
        if (!value.isIntegralNumber() || !TagRequests.inRange(value.bigIntegerValue(), 0, ShardId.MAX_APP_ID)) {
            throw new InvalidRequestException("appId", "Field 'appId' must be " + rule);
        }
        return value.intValue();
    }

    private static String appName(JsonNode value) {
        String rule = "a string of 1 to " + MAX_APP_NAME_LENGTH + " characters, not blank, without control characters";
        if (value == null || value.isNull()) {
            throw new InvalidRequestException("appName", "Field 'appName' is required: " + rule);
        }
        if (!value.isString() || value.stringValue().isBlank() || value.stringValue().length() > MAX_APP_NAME_LENGTH
                || TagRequests.hasControlCharacters(value.stringValue())) {
            throw new InvalidRequestException("appName", "Field 'appName' must be " + rule);
        }
        return value.stringValue();
    }

    private static int step(JsonNode value) {
        if (value == null || value.isNull()) {
            return DEFAULT_STEP;
        }
        if (!value.isIntegralNumber() || !TagRequests.inRange(value.bigIntegerValue(), 1, TagRequests.MAX_STEP)) {
            throw new InvalidRequestException("step", "Field 'step' must be a whole number from 1 to "
                    + TagRequests.MAX_STEP);
        }
        return value.intValue();
    }

    /**
     * 0 (no limit), or a limit that leaves every shard at least index 1: the smallest is one more
     * than the ID of index 1 in shard 63. A number, or a string of digits for clients that cannot
     * hold 64 bits in a number.
     */
    private static long maxLimitId(JsonNode value, int appId) {
        if (value == null || value.isNull()) {
            return 0;
        }
        long smallest = ShardId.compose(appId, ShardId.SHARDS - 1, 1) + 1;
        String rule = "Field 'maxLimitId' must be 0 (no limit) or a whole number (or a string of digits) from "
                + smallest + " to " + Long.MAX_VALUE + ", so that every shard can issue at least one ID";
        BigInteger number;
        if (value.isIntegralNumber()) {
            number = value.bigIntegerValue();
        } else if (value.isString() && TagRequests.isDigits(value.stringValue())) {
            number = new BigInteger(value.stringValue());
        } else {
            throw new InvalidRequestException("maxLimitId", rule);
        }
        if (number.signum() == 0) {
            return 0;
        }
        if (!TagRequests.inRange(number, smallest, Long.MAX_VALUE)) {
            throw new InvalidRequestException("maxLimitId", rule);
        }
        long limit = number.longValueExact();
        // The rule above is exact; the check keeps it so if the layout ever changes.
        if (new ShardLimit(appId, limit).maxIndex(ShardId.SHARDS - 1) < 1) {
            throw new InvalidRequestException("maxLimitId", rule);
        }
        return limit;
    }
}
