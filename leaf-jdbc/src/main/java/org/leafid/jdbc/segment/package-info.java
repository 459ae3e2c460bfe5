/**
 * Segment mode's server side: {@link org.leafid.jdbc.segment.LeafAllocRepository}, the
 * {@code SegmentStore} on {@code leaf_alloc} (MySQL/MariaDB, or the embedded H2) with Leaf's
 * UPDATE-then-SELECT in one transaction, and {@link org.leafid.jdbc.segment.LeafAllocMapper},
 * the table's SQL. Around it, what keeps segment mode serving through database trouble: the tag
 * refresher (an unreachable database does not stop the start and is retried every second; an
 * answer that the configuration is wrong stops it, naming the key), the readiness indicator, a
 * log of outages throttled to one line per cause, and the last failed load of each tag for the
 * status page.
 */
package org.leafid.server.segment;
