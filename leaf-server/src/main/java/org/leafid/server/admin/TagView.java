package org.leafid.server.admin;

import org.leafid.jdbc.segment.LeafAllocMapper.TagRow;

/**
 * A {@code leaf_alloc} row as JSON. {@code maxId} is a decimal string because it can pass
 * 2^53, beyond which a JavaScript number loses digits; {@code updateTime} is ISO-8601 in UTC.
 */
record TagView(String tag, String maxId, int step, String description, String updateTime) {

    static TagView of(TagRow row) {
        return new TagView(row.tag(), Long.toString(row.maxId()), row.step(), row.description(),
                row.updateTime() == null ? null : row.updateTime().toString());
    }
}
