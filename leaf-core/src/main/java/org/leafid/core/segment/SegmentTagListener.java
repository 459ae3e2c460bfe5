package org.leafid.core.segment;

/** Told when a refresh starts or stops serving a tag (metrics follow the tag list this way). */
public interface SegmentTagListener {

    SegmentTagListener NONE = new SegmentTagListener() {
        @Override
        public void tagAdded(SegmentIdGenerator generator) {}

        @Override
        public void tagRemoved(String tag) {}
    };

    void tagAdded(SegmentIdGenerator generator);

    void tagRemoved(String tag);
}
