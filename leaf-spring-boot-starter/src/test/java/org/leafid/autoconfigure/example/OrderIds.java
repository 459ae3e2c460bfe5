package org.leafid.autoconfigure.example;

import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.springframework.stereotype.Service;

@Service
public class OrderIds {

    /** The biz_tag of the leaf_alloc row the order numbers come from. */
    static final String ORDER_TAG = "order";

    private final SegmentAllocator segments;
    private final SnowflakeGenerator snowflake;

    public OrderIds(SegmentAllocator segments, SnowflakeGenerator snowflake) {
        this.segments = segments;
        this.snowflake = snowflake;
    }

    /** Segment mode: short, increasing numbers, reserved in blocks from leaf_alloc. */
    public long nextOrderNumber() {
        return segments.nextId(ORDER_TAG);
    }

    /** Snowflake mode: time-ordered 64-bit ids, no database round trip. */
    public long nextEventId() {
        return snowflake.nextId();
    }
}
