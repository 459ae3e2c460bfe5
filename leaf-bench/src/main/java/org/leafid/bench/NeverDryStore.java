package org.leafid.bench;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.leafid.core.segment.TagExhaustedException;
import org.leafid.core.segment.UnknownTagException;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStore;

/**
 * An in-memory {@code leaf_alloc} with the SQL's semantics: {@code max_id += max(requested, step)},
 * atomically, the row after the update returned; overflow is refused, never wrapped. It never
 * runs dry within a benchmark (2^63 numbers) and answers in well under a microsecond, so a
 * benchmark measures the buffer, not a database.
 */
final class NeverDryStore implements SegmentStore {

    private record Row(long maxId, int step) {}

    private final Map<String, Row> rows = new ConcurrentHashMap<>();

    NeverDryStore put(String tag, long maxId, int step) {
        if (step < 1) {
            throw new IllegalArgumentException("step must be at least 1: " + step);
        }
        rows.put(tag, new Row(maxId, step));
        return this;
    }

    @Override
    public AllocRow reserve(String tag, long requestedStep) {
        if (requestedStep < 1) {
            throw new IllegalArgumentException("requestedStep must be at least 1: " + requestedStep);
        }
        Row updated = rows.compute(tag, (t, row) -> {
            if (row == null) {
                throw new UnknownTagException(t);
            }
            long size = Math.max(requestedStep, row.step());
            if (row.maxId() > Long.MAX_VALUE - size) {
                throw new TagExhaustedException(t, row.maxId(), size);
            }
            return new Row(row.maxId() + size, row.step());
        });
        return new AllocRow(tag, updated.maxId(), updated.step());
    }

    @Override
    public List<String> tags() {
        return List.copyOf(rows.keySet());
    }
}
