/**
 * Segment mode's table: {@link org.leafid.jdbc.segment.LeafAllocRepository}, the {@code SegmentStore}
 * on {@code leaf_alloc} (MySQL/MariaDB, or the embedded H2) with Leaf's UPDATE-then-SELECT in one
 * transaction, and {@link org.leafid.jdbc.segment.LeafAllocMapper}, the table's SQL. The same
 * repository lists, inserts and re-steps rows for the tags view and the admin API, so they and the
 * allocator never see two different stores. Its failures say what to do: a {@code SegmentStoreException}
 * for the allocator, a {@link org.leafid.jdbc.segment.TagTableException} for the admin side, and a
 * {@link org.leafid.jdbc.segment.LeafAllocMisconfiguredException} when the database answers at start
 * that the configuration is wrong. What keeps the mode serving through database trouble (the tag
 * refresher, readiness, the outage log's use) is wired in the starter's
 * {@code org.leafid.autoconfigure.segment}.
 */
package org.leafid.jdbc.segment;
