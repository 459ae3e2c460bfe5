package org.leafid.core.segment;

/**
 * What a tag's double buffer holds, for monitoring. Block bounds are {@code [start, end)};
 * the next block's fields are null while none is loaded; {@code lastLoadFailure} says why the
 * last load failed, null when it succeeded.
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
        long lastLoadMillis,
        String lastLoadFailure) {

    /** The same view with {@code lastLoadFailure} as another reader may see it (no hosts, urls…). */
    public SegmentBufferView withLastLoadFailure(String shown) {
        return new SegmentBufferView(tag, initialized, currentStart, currentEnd, currentRemaining, nextStart, nextEnd,
                nextReady, loading, step, rowStep, lastLoadMillis, shown);
    }

    /** Numbers this instance can still issue without the database: the current and the next block. */
    public long available() {
        return currentRemaining + (nextReady ? nextEnd - nextStart : 0);
    }

    /** Nothing left to issue and the last attempt to load failed: the tag is down until the store answers. */
    public boolean starved() {
        return available() == 0 && lastLoadFailure != null;
    }
}
