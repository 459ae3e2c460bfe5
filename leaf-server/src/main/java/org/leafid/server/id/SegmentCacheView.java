package org.leafid.server.id;

import java.time.Instant;
import java.util.function.UnaryOperator;
import org.leafid.autoconfigure.segment.SegmentLoadOutcomes;
import org.leafid.core.segment.SegmentBufferView;

/**
 * One tag's double buffer as {@code /api/segment/cache} shows it. Block bounds are strings:
 * they pass 2^53, which JSON numbers cannot carry exactly.
 *
 * @param current the block serving now; {@code next} is null until the next one is loaded
 * @param lastLoadFailure why the last load failed, null when it succeeded
 * @param lastFailedLoad when the last load that failed was tried (ISO-8601), null when none has
 *     failed since the start; kept after a later success, for the record
 */
public record SegmentCacheView(String tag, boolean initialized, Block current, Block next, boolean nextReady,
        boolean loading, long step, long rowStep, String lastLoad, String lastLoadFailure, String lastFailedLoad) {

    /** Numbers {@code [start, end)}; {@code remaining} of them not yet issued. */
    public record Block(String start, String end, long size, long remaining) {}

    /**
     * @param lastFailure the tag's last failed load, or null when none failed
     * @param shown what the caller may read of a failure's text (no hosts or urls without the admin token)
     */
    public static SegmentCacheView of(SegmentBufferView view, SegmentLoadOutcomes.Failure lastFailure,
            UnaryOperator<String> shown) {
        Block current = new Block(Long.toString(view.currentStart()), Long.toString(view.currentEnd()),
                view.currentEnd() - view.currentStart(), view.currentRemaining());
        Block next = view.nextReady()
                ? new Block(Long.toString(view.nextStart()), Long.toString(view.nextEnd()),
                        view.nextEnd() - view.nextStart(), view.nextEnd() - view.nextStart())
                : null;
        String lastLoad = view.lastLoadMillis() < 0 ? null : Instant.ofEpochMilli(view.lastLoadMillis()).toString();
        return new SegmentCacheView(view.tag(), view.initialized(), current, next, view.nextReady(), view.loading(),
                view.step(), view.rowStep(), lastLoad, shown.apply(view.lastLoadFailure()),
                lastFailure == null ? null : lastFailure.at().toString());
    }
}
