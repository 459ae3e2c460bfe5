package org.leafid.server.web;

import org.leafid.core.snowflake.SnowflakeId;

/** {@code /api/snowflake/decode/{id}}: the parts of a snowflake ID; the id itself as a string. */
public record DecodedId(String id, long timestamp, String time, int workerId, int sequence) {

    public static DecodedId of(SnowflakeId parts) {
        return new DecodedId(Long.toString(parts.id()), parts.timestampMillis(), parts.time().toString(),
                parts.workerId(), parts.sequence());
    }
}
