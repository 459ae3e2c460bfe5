package org.leafid.core.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The claim offset of a {@link Segment}, alone on its cache line. Every claim writes it; if it
 * shared a line with the block's bounds, which every claim then reads, two threads would pass
 * that line back and forth twice per ID instead of once (docs/benchmark-history.md has the figures).
 *
 * <p>The padding is inherited so the JVM cannot reorder it around the counter: a superclass's
 * fields are laid out before a subclass's.
 */
final class ClaimCounter extends ClaimCounterValue {

    // 7 longs after the counter and 7 before it: no other field shares its 64-byte line.
    @SuppressWarnings("unused")
    private long after1, after2, after3, after4, after5, after6, after7;

    long getAndAdd(long delta) {
        return (long) VALUE.getAndAdd(this, delta);
    }

    long get() {
        return (long) VALUE.getVolatile(this);
    }
}

/** The padding before the counter. */
abstract class ClaimCounterPadding {
    @SuppressWarnings("unused")
    private long before1, before2, before3, before4, before5, before6, before7;
}

/** The counter itself, between the two paddings. */
abstract class ClaimCounterValue extends ClaimCounterPadding {

    static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(ClaimCounterValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through VALUE
    private volatile long value;
}
