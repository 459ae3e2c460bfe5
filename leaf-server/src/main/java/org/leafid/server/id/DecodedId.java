package org.leafid.server.id;

import org.leafid.core.snowflake.SnowflakeId;
import org.leafid.core.snowflake.SnowflakeLayout;

/**
 * {@code /api/snowflake/decode/{id}}: the parts of a snowflake ID in this server's layout; the id
 * itself as a string; {@code layout} as {@code 41/10/12 ms}. With a layout of seconds, the time
 * is the start of the ID's second.
 */
public record DecodedId(String id, long timestamp, String time, int workerId, int sequence, String layout) {

    public static DecodedId of(SnowflakeId parts, SnowflakeLayout layout) {
        return new DecodedId(Long.toString(parts.id()), parts.timestampMillis(), parts.time().toString(),
                parts.workerId(), parts.sequence(), layout.describe());
    }
}
