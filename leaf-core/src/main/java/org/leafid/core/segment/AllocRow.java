package org.leafid.core.segment;

/** A {@code leaf_alloc} row as a reservation left it: {@code maxId} is the new end of the block. */
public record AllocRow(String tag, long maxId, int step) {}
