package org.leafid.core.segment;

/**
 * One reserved block: the numbers {@code start .. start + size - 1}. Numbers are claimed by one
 * atomic add on an offset, so the hot path takes no lock and allocates nothing. The offset may
 * run past {@code size} while threads find the block spent; it is never turned into an ID then.
 */
final class Segment {

    final long start;
    final long size;
    /** The offset whose claim starts loading the next block: past 10 % use, as in Leaf. */
    final long preloadOffset;
    final long loadedAtMillis;

    /** Apart from the fields above, which every claim reads: see {@link ClaimCounter}. */
    private final ClaimCounter claimed = new ClaimCounter();

    /** A block with nothing in it: a generator starts with one, so its first call loads. */
    static Segment empty() {
        return new Segment(0, 0, -1);
    }

    Segment(long start, long size, long loadedAtMillis) {
        this.start = start;
        this.size = size;
        this.preloadOffset = size / 10;
        this.loadedAtMillis = loadedAtMillis;
    }

    /** Claims the next offset; it is an ID ({@code start + offset}) only when below {@code size}. */
    long claim() {
        return claimed.getAndAdd(1L);
    }

    /** Claims {@code count} offsets at once; the ones below {@code size} are IDs. */
    long claim(long count) {
        return claimed.getAndAdd(count);
    }

    /** The offset the next claim gets (at or past {@code size} when the block is spent); claims nothing. */
    long nextOffset() {
        return claimed.get();
    }

    /** Numbers not yet handed out. */
    long remaining() {
        return Math.max(0, size - claimed.get());
    }

    /** One past the last number of the block: the row's {@code max_id} when it was reserved. */
    long end() {
        return start + size;
    }
}
