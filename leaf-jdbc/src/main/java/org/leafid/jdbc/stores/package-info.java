/**
 * Segment blocks from several independent databases (issue 45): each store's {@code leaf_alloc}
 * gives numbers no other can ({@link org.leafid.core.segment.Stripes}), and every store records the
 * fleet it belongs to, so that a server configured with another fleet is refused.
 */
package org.leafid.jdbc.stores;
