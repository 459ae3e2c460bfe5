package org.leafid.core.segment;

/**
 * Creates a segment tag's row when it has none: what a format that resets needs at the start of each
 * period ({@code <tag>@<period>}), and what {@link SegmentStore} alone cannot do.
 */
@FunctionalInterface
public interface SegmentTagCreator {

    /**
     * Inserts the tag's row, its first number 1, or above every number its tag had reserved before
     * (a row deleted and made again), with {@code step}; nothing when the row exists, whoever made it.
     *
     * @throws SegmentStoreException when the store cannot be reached
     */
    void createIfMissing(String tag, int step, String description);
}
