package org.leafid.core.snowflake;

import java.time.Instant;

/** A snowflake ID and its parts. */
public record SnowflakeId(long id, long timestampMillis, int workerId, int sequence) {

    public Instant time() {
        return Instant.ofEpochMilli(timestampMillis);
    }
}
