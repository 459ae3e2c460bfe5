/**
 * Segment mode, Meituan Leaf's algorithm, independent of where the rows live (leaf-jdbc keeps them
 * in {@code leaf_alloc}). The SPI is {@link org.leafid.core.segment.SegmentStore}: atomically advance
 * a tag's {@code max_id} and list the tags. Above it, {@link org.leafid.core.segment.SegmentIdGenerator}
 * serves one tag from a double buffer (an ID is one atomic add on the current block's padded claim
 * counter; the next block is loaded in the background once 10 % of the current one is used),
 * {@link org.leafid.core.segment.StepPolicy} sizes blocks for about one load per 15 minutes, and
 * {@link org.leafid.core.segment.SegmentAllocator} keeps one generator per tag the store lists. The
 * listeners and {@link org.leafid.core.segment.SegmentBufferView} let the starter and the server add
 * meters, logs and the status page without touching the hot path.
 */
package org.leafid.core.segment;
