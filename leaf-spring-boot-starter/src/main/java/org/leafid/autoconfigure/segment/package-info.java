/**
 * Segment mode as beans ({@code leaf.segment.*}): the {@code leaf_alloc} store and the allocator over it,
 * and what keeps the mode serving, and visible, through database trouble. The tag refresher re-reads
 * the tag list, lets the start go on when the database cannot be reached (retrying every second, as
 * Meituan Leaf does) and stops it when the database answers that the configuration is wrong, naming the
 * key; the {@code segment} readiness indicator is DOWN until the tags are read and while one is starved; the per-tag meters exist
 * from the moment a tag appears; each tag's last failed load is kept for the status page and outages
 * are logged once per cause. These are here rather than in leaf-jdbc because they concern the running
 * application (scheduling, health, Micrometer, start failures), not the table.
 */
package org.leafid.autoconfigure.segment;
