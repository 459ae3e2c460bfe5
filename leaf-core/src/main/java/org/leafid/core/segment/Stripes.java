package org.leafid.core.segment;

/**
 * Numbers that several independent stores hand out without ever meeting (issue 45): from {@code base}
 * the number line is cut into stripes of {@code width} numbers, and stripe {@code j} belongs to store
 * {@code j mod stores}. A store's block lies inside one stripe of its own, so a block stays a run of
 * consecutive numbers (as Leaf's blocks, batches and ranges are) and no two stores' blocks overlap,
 * whatever each store's rows say. A block is at most a stripe wide.
 *
 * @param base the first number striped; below it nothing belongs to any store
 * @param width numbers per stripe: at least the largest block any server reserves
 * @param stores how many stores share the number line (1: every stripe is the one store's)
 * @param index this store's place among them, 0-based
 */
public record Stripes(long base, long width, int stores, int index) {

    public Stripes {
        if (base < 0) {
            throw new IllegalArgumentException("base must not be negative: " + base);
        }
        if (width < 1) {
            throw new IllegalArgumentException("width must be at least 1: " + width);
        }
        if (stores < 1) {
            throw new IllegalArgumentException("stores must be at least 1: " + stores);
        }
        if (index < 0 || index >= stores) {
            throw new IllegalArgumentException("index must be 0.." + (stores - 1) + ": " + index);
        }
    }

    /** Whether {@code number} is one of this store's. */
    public boolean owns(long number) {
        return number >= base && Math.floorMod(stripe(number), (long) stores) == index;
    }

    /**
     * The lowest start, at or above {@code from}, of a block of {@code size} numbers that lies inside
     * one stripe of this store. The rest of a stripe too short for the block is left unused: a gap,
     * never a number of another store.
     *
     * @throws IllegalArgumentException when {@code size} is not 1..width
     * @throws ArithmeticException when no such block fits below {@link Long#MAX_VALUE}
     */
    public long blockStart(long from, long size) {
        if (size < 1 || size > width) {
            throw new IllegalArgumentException("a block is 1.." + width + " numbers (the stripe width): " + size);
        }
        long at = Math.max(from, base);
        long stripe = stripe(at);
        long stripeEnd = Math.addExact(stripeStart(stripe), width);
        if (Math.floorMod(stripe, (long) stores) == index && Math.addExact(at, size) <= stripeEnd) {
            return at;
        }
        long next = stripe + 1 + Math.floorMod(index - (stripe + 1), (long) stores);
        long start = stripeStart(next);
        Math.addExact(start, size); // the block must end below Long.MAX_VALUE too
        return start;
    }

    private long stripe(long number) {
        return Math.floorDiv(number - base, width);
    }

    private long stripeStart(long stripe) {
        return Math.addExact(base, Math.multiplyExact(stripe, width));
    }
}
