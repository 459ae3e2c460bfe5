package org.leafid.core.format;

/**
 * How a format writes its number: decimal, base 36 ({@code 0-9A-Z}) or base 62 ({@code 0-9A-Za-z}),
 * always in a fixed width, zero-padded on the left. Base 36 is read in either case, since people
 * type it; base 62 is case-sensitive by nature.
 */
public enum Radix {
    DECIMAL("seq", "0123456789"),
    BASE36("seq36", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    BASE62("seq62", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");

    private final String token;
    private final char[] digits;
    private final int base;
    /** The digit value of each ASCII character, -1 where it is none. */
    private final byte[] values = new byte[128];

    Radix(String token, String alphabet) {
        this.token = token;
        this.digits = alphabet.toCharArray();
        this.base = digits.length;
        java.util.Arrays.fill(values, (byte) -1);
        for (int i = 0; i < digits.length; i++) {
            values[digits[i]] = (byte) i;
        }
        if (base == 36) {
            for (char c = 'a'; c <= 'z'; c++) {
                values[c] = (byte) (c - 'a' + 10);
            }
        }
    }

    /** The pattern token's name: {@code seq}, {@code seq36}, {@code seq62}. */
    public String token() {
        return token;
    }

    public int base() {
        return base;
    }

    /** The widest width whose numbers all fit a long, plus one: the last width some long still needs. */
    public int maxWidth() {
        int width = 1;
        for (long limit = Long.MAX_VALUE / base; limit > 0; limit /= base) {
            width++;
        }
        return width;
    }

    /** The largest number {@code width} characters hold, at most {@link Long#MAX_VALUE}. */
    public long maxValue(int width) {
        long max = 1;
        for (int i = 0; i < width; i++) {
            if (max > Long.MAX_VALUE / base) {
                return Long.MAX_VALUE;
            }
            max *= base;
        }
        return max - 1;
    }

    /** Writes {@code value} (0 .. {@link #maxValue}) into {@code into[at .. at + width)}. */
    public void write(long value, char[] into, int at, int width) {
        long rest = value;
        for (int i = at + width - 1; i >= at; i--) {
            into[i] = digits[(int) (rest % base)];
            rest /= base;
        }
    }

    /**
     * The number in {@code text[at .. at + width)}; -1 when a character is not a digit of this
     * radix, or the number does not fit a long.
     */
    public long read(CharSequence text, int at, int width) {
        long value = 0;
        for (int i = at; i < at + width; i++) {
            int digit = value(text.charAt(i));
            if (digit < 0 || value > (Long.MAX_VALUE - digit) / base) {
                return -1;
            }
            value = value * base + digit;
        }
        return value;
    }

    /** The digit value of {@code c} in this radix, or -1. */
    public int value(char c) {
        return c < 128 ? values[c] : -1;
    }
}
