package org.leafid.core.format;

import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import org.leafid.core.format.FormatPattern.Check;
import org.leafid.core.format.FormatPattern.Date;
import org.leafid.core.format.FormatPattern.Literal;
import org.leafid.core.format.FormatPattern.Number;
import org.leafid.core.format.FormatPattern.Part;

/**
 * A format's strings for one stretch of time in which its date parts do not change: the literal
 * text and date parts written once, and the check's sum over them computed once, so a string costs
 * the number's digits, their share of the check, and one copy. Immutable.
 */
final class Rendering {

    private static final byte[] DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
            .getBytes(StandardCharsets.US_ASCII);
    /** The last and the first digit of 00..99. */
    private static final byte[] ONES = new byte[100];
    private static final byte[] TENS = new byte[100];

    static {
        for (int pair = 0; pair < 100; pair++) {
            ONES[pair] = DIGITS[pair % 10];
            TENS[pair] = DIGITS[pair / 10];
        }
    }

    private final byte[] template;
    private final Radix radix;
    private final int numberAt;
    private final int numberWidth;
    private final CheckScheme scheme;
    private final int checkAt;
    /** The check's sum over every counted character but the number's. */
    private final int constantSum;
    /**
     * What each digit value adds to the check's sum at each of the number's places, right to left:
     * {@code [place * base + digit]}; the doubling of every second place and base 62's lower case
     * worked out once, so a string costs no division for its check.
     */
    private final int[] addends;
    /** For a decimal number: what each pair 00..99 adds at places {@code 2k, 2k + 1}, at {@code [2k * 50 + pair]}. */
    private final int[] pairAddends;

    Rendering(FormatPattern pattern, ZonedDateTime time) {
        char[] chars = new char[pattern.length()];
        Check check = pattern.check();
        Number number = pattern.number();
        for (Part part : pattern.parts()) {
            if (part instanceof Literal literal) {
                literal.text().getChars(0, literal.width(), chars, literal.at());
            } else if (part instanceof Date date) {
                Radix.DECIMAL.write(date.field().of(time), chars, date.at(), date.width());
            } else if (part instanceof Number n) {
                Radix.DECIMAL.write(0, chars, n.at(), n.width());
            } else if (part instanceof Check c) {
                chars[c.at()] = '0';
            }
        }
        template = new String(chars).getBytes(StandardCharsets.US_ASCII); // literal text is ASCII
        radix = number.radix();
        numberAt = number.at();
        numberWidth = number.width();
        int base = radix.base();
        addends = new int[numberWidth * base];
        pairAddends = new int[radix == Radix.DECIMAL ? (numberWidth + 1) / 2 * 100 : 0];
        if (check == null) {
            scheme = null;
            checkAt = -1;
            constantSum = 0;
            return;
        }
        scheme = check.scheme();
        checkAt = check.at();
        // Luhn: the character right before the check is doubled, then every second one leftwards.
        int sum = 0;
        boolean doubling = true;
        for (int i = checkAt - 1; i >= 0; i--) {
            boolean inNumber = i >= numberAt && i < numberAt + numberWidth;
            if (inNumber) {
                int place = numberAt + numberWidth - 1 - i; // every character of the number is counted
                for (int digit = 0; digit < base; digit++) {
                    int value = scheme.value((char) DIGITS[digit]);
                    addends[place * base + digit] = scheme.addend(value, doubling);
                }
            } else {
                int value = scheme.value(chars[i]);
                if (value < 0) {
                    continue;
                }
                sum += scheme.addend(value, doubling);
            }
            doubling = !doubling;
        }
        constantSum = sum;
        for (int place = 0; place + 1 < numberWidth && radix == Radix.DECIMAL; place += 2) {
            for (int pair = 0; pair < 100; pair++) {
                pairAddends[place * 50 + pair] = addends[place * 10 + pair % 10] + addends[(place + 1) * 10 + pair / 10];
            }
        }
    }

    /** The string of {@code number} (within the pattern's width). */
    String render(long number) {
        byte[] out = template.clone();
        int sum = constantSum;
        int end = numberAt + numberWidth - 1;
        // Division by a constant compiles to a multiplication; by a field it would not: a loop per radix.
        switch (radix) {
            case DECIMAL -> sum += number <= Integer.MAX_VALUE ? writeDecimal((int) number, out, end)
                    : writeDecimal(number, out, end);
            case BASE36 -> {
                long rest = number;
                for (int place = 0; place < numberWidth; place++) {
                    long quotient = rest / 36;
                    int digit = (int) (rest - quotient * 36);
                    rest = quotient;
                    out[end - place] = DIGITS[digit];
                    sum += addends[place * 36 + digit];
                }
            }
            case BASE62 -> {
                long rest = number;
                for (int place = 0; place < numberWidth; place++) {
                    long quotient = rest / 62;
                    int digit = (int) (rest - quotient * 62);
                    rest = quotient;
                    out[end - place] = DIGITS[digit];
                    sum += addends[place * 62 + digit];
                }
            }
        }
        if (scheme != null) {
            out[checkAt] = (byte) (scheme == CheckScheme.LUHN_MOD_10 ? DIGITS[(10 - sum % 10) % 10]
                    : DIGITS[(36 - sum % 36) % 36]);
        }
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    /**
     * Two digits per division, in int arithmetic (a day's numbers, most of all): the common case.
     * The pair's characters and its share of the check come from tables, so a pair costs one
     * multiplication for the division and three look-ups.
     */
    private int writeDecimal(int number, byte[] out, int end) {
        int sum = 0;
        int rest = number;
        int place = 0;
        // Leading zeros are the template's already, and a zero adds nothing to the check: stop at them.
        for (; place + 1 < numberWidth && rest != 0; place += 2) {
            int quotient = rest / 100;
            int pair = rest - quotient * 100;
            rest = quotient;
            out[end - place] = ONES[pair];
            out[end - place - 1] = TENS[pair];
            sum += pairAddends[place * 50 + pair];
        }
        if (place < numberWidth && rest != 0) {
            out[end - place] = DIGITS[rest];
            sum += addends[place * 10 + rest];
        }
        return sum;
    }

    private int writeDecimal(long number, byte[] out, int end) {
        int sum = 0;
        long rest = number;
        for (int place = 0; place < numberWidth; place++) {
            long quotient = rest / 10;
            int digit = (int) (rest - quotient * 10);
            rest = quotient;
            out[end - place] = DIGITS[digit];
            sum += addends[place * 10 + digit];
        }
        return sum;
    }
}
