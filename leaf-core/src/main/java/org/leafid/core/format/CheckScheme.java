package org.leafid.core.format;

/**
 * The check character of a format: the Luhn mod N algorithm, a published scheme that catches every
 * single mistyped character and most swaps of two neighbours. N is 10 over the decimal digits before
 * the check when the number is decimal (the classic Luhn digit, as on card numbers), 36 over the
 * letters and digits before it otherwise ({@code 0-9}, then {@code A-Z} in either case). Characters
 * outside the alphabet (a {@code -}, the letters of a decimal format's prefix) are not counted: they
 * are literal text, which decoding checks as such.
 */
public enum CheckScheme {
    LUHN_MOD_10(Radix.DECIMAL),
    LUHN_MOD_36(Radix.BASE36);

    private final Radix alphabet;

    CheckScheme(Radix alphabet) {
        this.alphabet = alphabet;
    }

    /** The value {@code c} counts for, or -1 when it is not counted. */
    public int value(char c) {
        return alphabet.value(c);
    }

    public int modulus() {
        return alphabet.base();
    }

    /**
     * What one counted character adds to the sum, by its place: {@code doubled} for the one right
     * before the check and every second one leftwards.
     */
    public int addend(int value, boolean doubled) {
        if (!doubled) {
            return value;
        }
        int twice = value * 2;
        return twice / modulus() + twice % modulus();
    }

    /** The check character for the sum of the addends of everything before it. */
    public char checkFor(int sum) {
        int n = modulus();
        int check = (n - sum % n) % n;
        return check < 10 ? (char) ('0' + check) : (char) ('A' + check - 10);
    }

    /** The check character for {@code text[0 .. end)}. */
    public char checkOf(CharSequence text, int end) {
        int sum = 0;
        boolean doubled = true;
        for (int i = end - 1; i >= 0; i--) {
            int value = value(text.charAt(i));
            if (value >= 0) {
                sum += addend(value, doubled);
                doubled = !doubled;
            }
        }
        return checkFor(sum);
    }

    /** Whether {@code c} is the check character of {@code text[0 .. end)}; either case for letters. */
    public boolean valid(CharSequence text, int end, char c) {
        char expected = checkOf(text, end);
        return c == expected || (expected >= 'A' && c == Character.toLowerCase(expected));
    }
}
