package org.leafid.core;

/**
 * Sums and products of non-negative counts that stop at {@link Long#MAX_VALUE} instead of wrapping:
 * a floor past every number is a refusal, a wrapped one would be a repeat.
 */
public final class SaturatedMath {

    private SaturatedMath() {
    }

    /** {@code a + b}, or {@link Long#MAX_VALUE} when it overflows upwards. */
    public static long add(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    /** {@code a × b} for non-negative factors, or {@link Long#MAX_VALUE} when it overflows. */
    public static long multiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return (high == 0 && low >= 0) ? low : Long.MAX_VALUE;
    }
}
