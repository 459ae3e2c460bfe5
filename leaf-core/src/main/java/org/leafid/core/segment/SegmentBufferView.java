package org.leafid.core.segment;

/**
 * What a tag's double buffer holds, for monitoring. Block bounds are {@code [start, end)};
 * the next block's fields are null while none is loaded.
 */
public record SegmentBufferView(
        String tag,
        boolean initialized,
        long currentStart,
        long currentEnd,
        long currentRemaining,
        Long nextStart,
        Long nextEnd,
        boolean nextReady,
        boolean loading,
        long step,
        long rowStep,
        long lastLoadMillis) {}
