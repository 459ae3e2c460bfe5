package org.leafid.core.segment;

import java.time.Duration;

/**
 * Told about every block load, for metrics and the operator's log (the generator logs a failed
 * load only at debug level: during an outage loads fail every retry). Called on the loading
 * thread, never on the ID hot path; implementations must be quick and must not throw.
 */
public interface SegmentLoadListener {

    SegmentLoadListener NONE = new SegmentLoadListener() {
        @Override
        public void loaded(String tag, Duration took, long size) {}

        @Override
        public void failed(String tag, Duration took, RuntimeException cause) {}
    };

    /** A block of {@code size} numbers was reserved in {@code took}. */
    void loaded(String tag, Duration took, long size);

    /** Reserving a block failed after {@code took}. */
    void failed(String tag, Duration took, RuntimeException cause);

    /**
     * The store answered a block starting at {@code blockStart}, below numbers already reserved (this
     * server's own, its data directory's witness or the fleet's): the store went back, and nothing
     * below {@code servedFrom} is served. Rare, and each time worth an operator's look.
     */
    default void wentBack(String tag, long blockStart, long servedFrom) {}
}
